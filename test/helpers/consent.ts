/** The hidden and visible fields of the first form of an HTML page, and where it posts. */
export function formOf(html: string): { action: string | null; fields: Record<string, string> } {
  const form = /<form[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[0] ?? '';
  const action = /action="([^"]*)"/.exec(form)?.[1] ?? null;
  const fields: Record<string, string> = {};
  for (const m of form.matchAll(/<(?:input|select)[^>]*name="([^"]+)"[^>]*?(?:value="([^"]*)")?[^>]*>/g))
    fields[m[1]!] = m[2] ?? '';
  return { action, fields };
}

/** Text with its numeric HTML entities decoded (`&#38;` → `&`). */
export const decode = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));

/**
 * A seller's walk through an invitation link over HTTP, as a browser would: the invitation's form, the marketplace's
 * consent page (the fake's), confirming as `sellerId`, then the callback on our server. Returns the callback's
 * answer and the URLs it went through.
 */
export async function connectThroughInvitation(
  inviteUrl: string,
  sellerId: string,
  form: { name: string; marketplaceId: string },
) {
  const start = await fetch(inviteUrl, { method: 'POST', redirect: 'manual', body: new URLSearchParams(form) });
  // (Every answer is read to its end: one left unread keeps its connection busy, and the server cannot close.)
  const started = await start.text();
  if (start.status !== 302) throw new Error(`the invitation answered ${start.status}: ${started}`);
  const consent = new URL(start.headers.get('location')!);
  const consentForm = formOf(await (await fetch(consent)).text());
  const confirmed = await fetch(new URL(consentForm.action ?? consent.pathname + consent.search, consent), {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ ...consentForm.fields, ...Object.fromEntries(consent.searchParams), sellerId }),
  });
  await confirmed.text();
  if (confirmed.status !== 302) throw new Error(`the consent answered ${confirmed.status}`);
  const callbackUrl = confirmed.headers.get('location')!;
  const callback = await fetch(callbackUrl);
  return { callback, body: await callback.text(), consentUrl: consent.toString(), callbackUrl };
}
