import { Option, type Command } from 'commander';
import type { CommandFactory, WithControl } from './arguments.ts';

/**
 * `mktdata org beta`, `mktdata actions enable|disable` and `mktdata connections access` (modules load when they run).
 */
export function actionCommands(program: Command, command: CommandFactory, withHome: WithControl): void {
  const sub = (name: string) => program.commands.find((c) => c.name() === name)!;
  command(sub('org'), 'beta', 'mktdata org beta --org $ORG --actions on')
    .description(
      'give an organization the actions private beta, or take it away (without it the actions endpoints answer 501)',
    )
    .requiredOption('--org <id>', 'organization id')
    .addOption(new Option('--actions <state>', 'the actions beta').choices(['on', 'off']).makeOptionMandatory())
    .action(async (o) => {
      const { setActionsBeta } = await import('../actions/settings.ts');
      await withHome('org beta', async (wh) => {
        await setActionsBeta(wh, o.org, o.actions === 'on');
        console.log(`actions beta ${o.actions} for organization ${o.org}`);
      });
    });

  const actions = program.command('actions').description('action types an organization may run');
  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    command(actions, verb, `mktdata actions ${verb} --org $ORG --type MKT_LISTINGS_PRICING_UPDATE MKT_LISTINGS_FIND`)
      .description(
        `${verb} action types for an organization's live actions (a dry run validates any type); prints the enabled types`,
      )
      .requiredOption('--org <id>', 'organization id')
      .requiredOption('--type <types...>', 'action types of the spec')
      .action(async (o) => {
        const { setActionTypes } = await import('../actions/settings.ts');
        await withHome(`actions ${verb}`, async (wh) => {
          const types = await setActionTypes(wh, o.org, o.type, enabled);
          console.log(types.length > 0 ? types.join('\n') : '(no action type enabled)');
        });
      });
  }

  command(sub('connections'), 'access', 'mktdata connections access --connection $CONN --level READ_AND_WRITE')
    .description(
      'record the access level the seller or vendor granted: READ_AND_WRITE lets live actions write to the account',
    )
    .requiredOption('--connection <id>', 'sellerOrVendorId')
    .addOption(new Option('--level <level>', 'access level').choices(['READ', 'READ_AND_WRITE']).makeOptionMandatory())
    .action(async (o) => {
      const { setConnectionAccess } = await import('../actions/settings.ts');
      await withHome('connections access', async (wh) => {
        await setConnectionAccess(wh, o.connection, o.level);
        console.log(`${o.connection}: access level ${o.level}`);
      });
    });
}
