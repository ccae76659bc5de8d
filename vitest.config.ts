import { defineConfig } from 'vitest/config';

/**
 * `npm test` at the root runs both packages: the bot's tests (test/) and the sandbox's contract
 * tests (packages/discord-sandbox, with its own vitest.config.ts).
 */
export default defineConfig({
	test: {
		// Contract and end-to-end tests start a real sandbox and real discord.js clients on port 0;
		// they are network-bound, not CPU-bound, but two cores are all CI has.
		pool: 'forks',
		maxWorkers: 2,
		projects: [
			{
				test: {
					name: 'massnick',
					include: ['test/**/*.test.ts'],
					pool: 'forks',
					testTimeout: 60_000,
					hookTimeout: 60_000,
				},
			},
			'packages/discord-sandbox',
		],
	},
});
