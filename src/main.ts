
/**
 * The command line: `start` runs the bot, `demo` shows it on the sandbox, `sandbox` runs the
 * local Discord alone, `bench` measures. Each loads only what it needs.
 */
const usage = `usage: tsx src/main.ts <start | demo | sandbox | bench> [options]

  start     run massnick against Discord (or DISCORD_API_URL), configured by .env and config/
  demo      start a local sandbox guild and show a rename and a restore end to end
  sandbox   run the local Discord sandbox alone (npm run sandbox -- --help)
  bench     measure throughput and memory against the sandbox (npm run bench -- --quick)`;

const [command, ...args] = process.argv.slice(2);
try {
	switch (command) {
		case 'start': {
			const { runStart } = await import('./cli/runStart.js');
			await runStart();
			break;
		}
		case 'demo': {
			const { runDemo } = await import('./cli/runDemo.js');
			process.exitCode = await runDemo(args);
			break;
		}
		case 'sandbox': {
			const { runSandboxCli } = await import('./sandbox/cli.js');
			await runSandboxCli(args);
			break;
		}
		case 'bench': {
			const { runBench } = await import('../bench/runBench.js');
			process.exitCode = await runBench(args);
			break;
		}
		default:
			console.error(usage);
			process.exitCode = command === undefined || command === '--help' ? 0 : 2;
	}
} catch (error) {
	console.error((error as Error).message);
	process.exitCode = 1;
}
