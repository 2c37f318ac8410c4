import { Option, type Command } from 'commander';
import { connectionTypes } from '../db/control-plane.ts';
import { wholeNumber, type CommandFactory, type WithControl } from './arguments.ts';

/**
 * `mktdata org|keys|connections …`: the commands that only touch the control plane (the home's warehouse, or the
 * shared PostgreSQL of a scaled-out install); their modules load when they run.
 */
export function controlCommands(program: Command, command: CommandFactory, withControl: WithControl): void {
  const org = program.command('org').description('organizations');
  command(org, 'create', 'ORG=$(mktdata org create --name "My company" --tokens 1000 | tail -1)')
    .description('create an organization; prints its id')
    .requiredOption('--name <name>', 'organization name')
    .option('--tokens <n>', 'initial token balance', wholeNumber, 0)
    .action(async (o) => {
      const { createOrganization } = await import('../control/organizations.ts');
      await withControl('org create', async (wh) => console.log(await createOrganization(wh, { name: o.name, tokens: o.tokens })));
    });

  command(org, 'tokens', 'mktdata org tokens --org $ORG --add 500')
    .description("print an organization's token balance, after adding --add tokens")
    .requiredOption('--org <id>', 'organization id')
    .option('--add <n>', 'tokens to add', wholeNumber)
    .action(async (o) => {
      const { addTokens, tokenBalance } = await import('../control/tokens.ts');
      await withControl('org tokens', async (wh) => console.log(o.add === undefined ? await tokenBalance(wh, o.org) : await addTokens(wh, o.org, o.add)));
    });

  const keys = program.command('keys').description('API keys');
  command(keys, 'create', 'KEY=$(mktdata keys create --org $ORG | tail -1)')
    .description('create an API key; prints it once (only its hash is stored)')
    .requiredOption('--org <id>', 'organization id')
    .action(async (o) => {
      const { createApiKey } = await import('../control/organizations.ts');
      await withControl('keys create', async (wh) => console.log(await createApiKey(wh, o.org)));
    });

  const connections = program.command('connections').description('seller and vendor connections');
  command(connections, 'add', 'CONN=$(mktdata connections add --org $ORG --name "My US shop" --marketplace ATVPDKIKX0DER | tail -1)')
    .description('add a connection; prints its sellerOrVendorId')
    .requiredOption('--org <id>', 'organization id')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--marketplace <id>', 'marketplace id, e.g. ATVPDKIKX0DER')
    .addOption(new Option('--type <type>', 'connection type').choices(connectionTypes).default('SELLER_CENTRAL'))
    .option('--seller-id <id>', 'marketplace merchant id')
    .option('--id <uuid>', 'use this sellerOrVendorId instead of a new one')
    .action(async (o) => {
      const { addConnection } = await import('../control/connections.ts');
      await withControl('connections add', async (wh) =>
        console.log(await addConnection(wh, { organizationId: o.org, name: o.name, marketplaceId: o.marketplace, type: o.type, sellerId: o.sellerId, id: o.id })),
      );
    });

  command(connections, 'list', 'mktdata connections list --format json')
    .description('list the connections with their load stage and the state of their credentials (never the secrets)')
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'))
    .action(async (o) => {
      const { listConnections } = await import('./commands/connections.ts');
      await withControl('connections list', (wh) => listConnections(wh, o.format));
    });
  command(connections, 'credentials', 'printf %s "$REFRESH_TOKEN" | mktdata connections credentials --connection $CONN --selling-partner-id A3ACMEUS0SELLER')
    .description('store a connection\'s refresh token, encrypted: read from $MKTDATA_REFRESH_TOKEN or standard input, never from the command line')
    .requiredOption('--connection <id>', 'sellerOrVendorId')
    .addOption(new Option('--api <api>', 'which API the refresh token is for').choices(['sp-api', 'ads']).default('sp-api'))
    .option('--selling-partner-id <id>', 'sp-api: the seller\'s merchant token (selling_partner_id)')
    .option('--profile-id <id>', 'ads: the advertising profile of the connection\'s marketplace')
    .option('--remove', 'remove the stored credentials of this API instead')
    .action(async (o) => {
      const { credentials } = await import('./commands/connections.ts');
      await withControl('connections credentials', (wh) => credentials(wh, o));
    });

  command(connections, 'test', 'mktdata connections test --connection $CONN --api sp-api')
    .description('check a connection\'s credentials with one cheap authenticated call per API, and say plainly what is wrong')
    .requiredOption('--connection <id>', 'sellerOrVendorId')
    .addOption(new Option('--api <api>', 'only this API').choices(['sp-api', 'ads']))
    .action(async (o) => {
      const { testConnectionCommand } = await import('./commands/connections.ts');
      await withControl('connections test', (wh) => testConnectionCommand(wh, o));
    });
}
