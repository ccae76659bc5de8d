import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		name: 'discord-sandbox',
		include: ['test/**/*.test.ts'],
		// The contract tests start a real sandbox and real discord.js clients on port 0: network-bound,
		// but two cores are all CI has.
		pool: 'forks',
		maxWorkers: 2,
		testTimeout: 60_000,
		hookTimeout: 60_000,
	},
});
