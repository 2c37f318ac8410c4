// Holds a home's write lock until killed: the other writer in warehouse tests.
import { openWarehouse } from '../../src/db/warehouse.ts';
import { resolveHome } from '../../src/home.ts';

await openWarehouse(resolveHome(process.argv[2]), 'hold');
console.log('holding');
setInterval(() => {}, 1000);
