// `npm run bench`: every benchmark, one after the other.
import { printSdkTable, runSdkBench } from './sdk.js';

printSdkTable(await runSdkBench());
