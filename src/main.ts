#!/usr/bin/env node
/**
 * The command line: `start` runs the bot, `doctor` checks the setup, `run` runs one job without
 * slash commands, `demo` shows it on the local Discord sandbox (the workspace package
 * `@massnick/discord-sandbox`, a devDependency). Each loads only what it needs, so a production
 * install (no devDependencies) runs `start`, `doctor` and `run` without the sandbox.
 */
const usage = `usage: massnick <start | doctor | run | demo> [options]

  start     run massnick against Discord (or DISCORD_API_URL), configured by .env and config/
  doctor    check every token, invite, permission, role and intent before a job; --help for options
  run       run one job (massnick, massrole, restore) or a lockdown from a terminal or a scheduler
            and exit; --help
  demo      start a local sandbox guild and show a rename and a restore end to end

The sandbox alone is npm run sandbox -- --help; the benchmark is npm run bench (neither is part of the product).`;

/** Commands that need the development install (npm install): the sandbox package. */
const DEVELOPMENT_COMMANDS = new Set(['demo']);

const [command, ...args] = process.argv.slice(2);
try {
	switch (command) {
		case 'start': {
			const { runStart } = await import('./cli/runStart.js');
			await runStart();
			break;
		}
		case 'doctor': {
			const { runDoctorCommand } = await import('./cli/runDoctorCommand.js');
			process.exitCode = await runDoctorCommand(args);
			break;
		}
		case 'run': {
			const { runJobCommand } = await import('./cli/runJobCommand.js');
			process.exitCode = await runJobCommand(args);
			break;
		}
		case 'demo': {
			const { runDemo } = await import('./cli/runDemo.js');
			process.exitCode = await runDemo(args);
			break;
		}
		default:
			console.error(usage);
			process.exitCode = command === undefined || command === '--help' ? 0 : 2;
	}
} catch (error) {
	const missing = (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND';
	if (missing && command !== undefined && DEVELOPMENT_COMMANDS.has(command)) {
		console.error(
			`massnick ${command} needs the development install, which has the sandbox package: run npm install (a production install prunes them), then npm run ${command}.`,
		);
	} else {
		console.error((error as Error).message);
	}
	process.exitCode = 1;
}
