#!/usr/bin/env node
// The `pixgate` command of the package (package.json bin): `npx pixgate listen ...` from a
// clone or from the installed package. The command is TypeScript (src/cli/); tsx, a runtime
// dependency of pixgate (the server runs on it too), loads it, so nothing has to be built first.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2), process.env);
