#!/usr/bin/env node
// `fake-marketplace [--port 8090] [--host 127.0.0.1] [--speed 1] [--start ISO] [--opened-on DATE] [--no-throttling]`:
// the same server as `mktdata fake-marketplace`, without mktdata.
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8090' },
    host: { type: 'string', default: '127.0.0.1' },
    speed: { type: 'string', default: '1' },
    start: { type: 'string' },
    'opened-on': { type: 'string' },
    'no-throttling': { type: 'boolean', default: false },
  },
});
const number = (name, value, ok) => {
  const n = Number(value);
  if (!ok(n)) {
    console.error(`fake-marketplace: --${name} is not valid: ${value}`);
    process.exit(2);
  }
  return n;
};
const { serveFakeMarketplace } = await import('../dist/index.js');
await serveFakeMarketplace({
  host: values.host,
  port: number('port', values.port, (n) => Number.isInteger(n) && n >= 0 && n < 65536),
  speed: number('speed', values.speed, (n) => n > 0),
  start: values.start,
  openedOn: values['opened-on'],
  throttling: !values['no-throttling'],
});
