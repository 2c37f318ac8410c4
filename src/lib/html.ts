/** Text escaped for HTML. */
export const html = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A small, accessible HTML page (the invitation and OAuth pages): a title and a body. */
export const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${html(title)}</title></head><body><h1>${html(title)}</h1>${body}</body></html>`;
