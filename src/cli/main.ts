import { runCli } from './run-cli.ts';

// The `mktdata` command: bin/mktdata.js imports the built module.
process.exitCode = await runCli(process.argv.slice(2));
