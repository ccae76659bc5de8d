import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.ts'],
		// Contract and end-to-end tests start a real sandbox and real discord.js clients on port 0;
		// they are network-bound, not CPU-bound, but two cores are all CI has.
		pool: 'forks',
		maxWorkers: 2,
		testTimeout: 60_000,
		hookTimeout: 60_000,
	},
});
