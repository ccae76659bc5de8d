#!/usr/bin/env node
/** `npm run sandbox` (at the repository's root) or `npm start` here: the sandbox alone, until SIGINT or SIGTERM. */
import { runSandboxCli } from './cli.js';

await runSandboxCli(process.argv.slice(2));
