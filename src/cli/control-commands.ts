import { Option, type Command } from 'commander';
import { connectionTypes } from '../db/control-plane.ts';
import { wholeNumber, type CommandFactory, type WithControl } from './arguments.ts';
import { formatOption, printRows } from './output.ts';

/** A timestamp column as ISO 8601 (null stays null). */
const iso = (value: string | null) => (value === null ? null : new Date(String(value)).toISOString());

/**
 * `mktdata org|keys|connections …`: the commands that only touch the control plane (the home's warehouse, or the
 * shared PostgreSQL of a scaled-out install); their modules load when they run. A secret a command reads is put in
 * `secrets`, by environment variable name, for a running server the command is handed to.
 */
export function controlCommands(
  program: Command,
  command: CommandFactory,
  withControl: WithControl,
  withHome: WithControl,
  secrets: Record<string, string>,
): void {
  const org = program.command('org').description('organizations');
  command(org, 'create', 'ORG=$(mktdata org create --name "My company" | tail -1)')
    .description(
      'create an organization; prints its id. Without --tokens it is unmetered: its usage is recorded, it never runs out',
    )
    .requiredOption('--name <name>', 'organization name')
    .option('--tokens <n>', 'meter it: its initial token balance', wholeNumber)
    .action(async (o) => {
      const { createOrganization } = await import('../control/organizations.ts');
      await withControl('org create', async (wh) =>
        console.log(await createOrganization(wh, { name: o.name, tokens: o.tokens ?? null })),
      );
    });

  command(org, 'tokens', 'mktdata org tokens --org $ORG --add 500')
    .description(
      "print an organization's token balance (unmetered: none), after adding --add tokens (which meters an unmetered one)",
    )
    .requiredOption('--org <id>', 'organization id')
    .option('--add <n>', 'tokens to add', wholeNumber)
    .action(async (o) => {
      const { addTokens, tokenBalance } = await import('../control/tokens.ts');
      await withControl('org tokens', async (wh) =>
        console.log(
          o.add === undefined ? ((await tokenBalance(wh, o.org)) ?? 'unmetered') : await addTokens(wh, o.org, o.add),
        ),
      );
    });

  command(org, 'list', 'mktdata org list --format json')
    .description('list the organizations with their token balance, connections and live API keys')
    .addOption(formatOption())
    .action(async (o) => {
      const { listOrganizations } = await import('../control/organizations.ts');
      await withControl('org list', async (wh) => {
        const rows = (await listOrganizations(wh)).map((r) => [
          r.id,
          r.name,
          r.token_balance === null ? 'unmetered' : Number(r.token_balance),
          Number(r.connections),
          Number(r.api_keys),
          iso(r.created_at),
        ]);
        printRows(o.format, ['id', 'name', 'tokens', 'connections', 'api_keys', 'created_at'], rows);
      });
    });

  const keys = program.command('keys').description('API keys');
  command(keys, 'create', 'KEY=$(mktdata keys create --org $ORG | tail -1)')
    .description('create an API key; prints its id (to revoke it), then the key once (only its hash is stored)')
    .requiredOption('--org <id>', 'organization id')
    .action(async (o) => {
      const { createApiKey, listApiKeys } = await import('../control/organizations.ts');
      await withControl('keys create', async (wh) => {
        const key = await createApiKey(wh, o.org);
        const [made] = await listApiKeys(wh, o.org);
        console.log(`key id ${made!.id} (\`mktdata keys revoke --id ${made!.id}\` revokes it)`);
        console.log(key);
      });
    });
  command(keys, 'list', 'mktdata keys list --org $ORG')
    .description('list the API keys (their ids and first characters, never the keys), newest first')
    .option('--org <id>', 'only this organization')
    .addOption(formatOption())
    .action(async (o) => {
      const { listApiKeys } = await import('../control/organizations.ts');
      await withControl('keys list', async (wh) => {
        const rows = (await listApiKeys(wh, o.org)).map((k) => [
          k.id,
          k.organization_id,
          k.organization,
          `${k.key_prefix}…`,
          iso(k.created_at),
          iso(k.revoked_at),
        ]);
        printRows(o.format, ['id', 'organization_id', 'organization', 'starts_with', 'created_at', 'revoked_at'], rows);
      });
    });
  command(keys, 'revoke', 'mktdata keys revoke --id $KEY_ID')
    .description('revoke an API key: its requests get 401 and its console sessions end, at once')
    .requiredOption('--id <id>', 'key id, as `mktdata keys list` shows it')
    .action(async (o) => {
      const { revokeApiKey } = await import('../control/organizations.ts');
      await withControl('keys revoke', async (wh) =>
        console.log(`key ${o.id} revoked at ${await revokeApiKey(wh, o.id)}`),
      );
    });

  const connections = program.command('connections').description('seller and vendor connections');
  command(
    connections,
    'add',
    'CONN=$(mktdata connections add --org $ORG --name "My US shop" --marketplace ATVPDKIKX0DER | tail -1)',
  )
    .description('add a connection; prints its sellerOrVendorId')
    .requiredOption('--org <id>', 'organization id')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--marketplace <id>', 'marketplace id, e.g. ATVPDKIKX0DER')
    .addOption(new Option('--type <type>', 'connection type').choices(connectionTypes).default('SELLER_CENTRAL'))
    .option('--seller-id <id>', "the seller's merchant id (selling_partner_id)")
    .option('--id <uuid>', 'use this sellerOrVendorId instead of a new one')
    .action(async (o) => {
      const { addConnection } = await import('../control/connections/connections.ts');
      await withControl('connections add', async (wh) =>
        console.log(
          await addConnection(wh, {
            organizationId: o.org,
            name: o.name,
            marketplaceId: o.marketplace,
            type: o.type,
            sellerId: o.sellerId,
            id: o.id,
          }),
        ),
      );
    });

  command(connections, 'list', 'mktdata connections list --format json')
    .description('list the connections with their load stage and the state of their credentials (never the secrets)')
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'))
    .action(async (o) => {
      const { listConnections } = await import('./commands/connections.ts');
      await withControl('connections list', (wh) => listConnections(wh, o.format));
    });
  command(
    connections,
    'credentials',
    'printf %s "$REFRESH_TOKEN" | mktdata connections credentials --connection $CONN --seller-id A3ACMEUS0SELLER',
  )
    .description(
      "store a connection's refresh token, encrypted: read from $MKTDATA_REFRESH_TOKEN or standard input, never from the command line",
    )
    .requiredOption('--connection <id>', 'sellerOrVendorId')
    .addOption(
      new Option('--api <api>', 'which API the refresh token is for').choices(['sp-api', 'ads']).default('sp-api'),
    )
    .option('--seller-id <id>', "sp-api: the seller's merchant id (selling_partner_id)")
    .addOption(new Option('--selling-partner-id <id>').hideHelp())
    .option('--profile-id <id>', "ads: the advertising profile of the connection's marketplace")
    .option('--remove', 'remove the stored credentials of this API instead')
    .action(async (o) => {
      const { credentials, readRefreshToken } = await import('./commands/connections.ts');
      o.sellerId ??= o.sellingPartnerId;
      // Read before the home is touched: beside a running server, the command is handed to it with the token.
      const refreshToken = o.remove ? null : await readRefreshToken(o, secrets);
      await withControl('connections credentials', (wh) => credentials(wh, o, refreshToken));
    });

  command(connections, 'remove', 'mktdata connections remove --connection $CONN')
    .description(
      'remove a connection: its rows leave every table and the published file at once; its landed documents stay in landed/<id>/ unless --purge',
    )
    .requiredOption('--connection <id>', 'sellerOrVendorId')
    .option('--purge', 'also delete its landed documents and what waits in its landing folder')
    .action(async (o) => {
      const { removeConnection } = await import('../pipelines/remove-connection.ts');
      await withHome('connections remove', async (wh) => {
        const removed = await removeConnection(wh, o.connection, { purge: Boolean(o.purge) });
        console.log(
          `removed ${removed.name} (${o.connection}): ${removed.rows} row(s) deleted from the warehouse${removed.published ? ' and the published file' : ''}`,
        );
        console.log(
          removed.purged
            ? 'its landed documents were deleted'
            : `its landed documents are kept in landed/${o.connection}/ (--purge deletes them)`,
        );
      });
    });

  command(connections, 'test', 'mktdata connections test --connection $CONN --api sp-api')
    .description(
      "check a connection's credentials with one cheap authenticated call per API, and say plainly what is wrong",
    )
    .requiredOption('--connection <id>', 'sellerOrVendorId')
    .addOption(new Option('--api <api>', 'only this API').choices(['sp-api', 'ads']))
    .action(async (o) => {
      const { testConnectionCommand } = await import('./commands/connections.ts');
      await withControl('connections test', (wh) => testConnectionCommand(wh, o));
    });
}
