import { Option, type Command } from 'commander';
import type { CommandFactory, WithControl } from './arguments.ts';

/** `mktdata webhooks add|list|remove|replay` (their modules load when they run). */
export function webhookCommands(program: Command, command: CommandFactory, withHome: WithControl): void {
  const webhooks = program.command('webhooks').description('webhook subscriptions (delivered by `mktdata serve`)');
  command(
    webhooks,
    'add',
    'WEBHOOK=$(mktdata webhooks add --org $ORG --url https://hooks.example.com/mktdata --types MKT_ORDER_UPDATE | tail -1)',
  )
    .description('subscribe a receiver URL; prints the signing secret once, then the subscription id')
    .requiredOption('--org <id>', 'organization id')
    .requiredOption('--url <url>', 'https URL (http only to loopback, for development)')
    .option('--types <types...>', 'message types (default: every type that is not highVolume)')
    .option('--connection <ids...>', 'only events of these sellerOrVendorIds')
    .addOption(new Option('--seller <ids...>').hideHelp())
    .action(async (o) => {
      const { addWebhook } = await import('./commands/webhooks.ts');
      await withHome('webhooks add', (wh) => addWebhook(wh, { ...o, seller: o.connection ?? o.seller }));
    });
  command(webhooks, 'list', 'mktdata webhooks list --org $ORG')
    .description('list the subscriptions, with why a disabled one stopped (never their secrets)')
    .option('--org <id>', 'only this organization')
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'))
    .action(async (o) => {
      const { listWebhooks } = await import('./commands/webhooks.ts');
      await withHome('webhooks list', (wh) => listWebhooks(wh, o));
    });
  command(webhooks, 'remove', 'mktdata webhooks remove --id $WEBHOOK')
    .description('remove a subscription; its pending deliveries are canceled')
    .requiredOption('--id <id>', 'subscription id')
    .action(async (o) => {
      const { removeWebhook } = await import('./commands/webhooks.ts');
      await withHome('webhooks remove', (wh) => removeWebhook(wh, o.id));
    });
  command(webhooks, 'replay', 'mktdata webhooks replay --subscription $WEBHOOK --since 2026-11-24T00:00:00Z')
    .description('deliver again every event since a time to a subscription (enabling it again if it was disabled)')
    .requiredOption('--subscription <id>', 'subscription id')
    .requiredOption('--since <time>', 'ISO 8601 date or date-time')
    .action(async (o) => {
      const { replayWebhook } = await import('./commands/webhooks.ts');
      await withHome('webhooks replay', (wh) => replayWebhook(wh, o));
    });
}
