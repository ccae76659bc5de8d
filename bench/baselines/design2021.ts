/**
 * Baseline 2: the 2021 design (the first write-up of massnick). N clients in one
 * process, one per worker token; each fetches the whole member list into its cache, keeps the
 * members with `(id >> 22) % N` equal to its place and a nickname not yet the target, and fires
 * `setNickname` for its whole slice at once, leaving discord.js to space the requests.
 *
 * Started by `npm run bench` with the `BENCH_*` settings of baselineChild.ts; it runs until killed.
 */
import type { GuildMember } from 'discord.js';
import { loginBaselineClient, report, runBaseline, waitForGo } from './baselineChild.js';

await runBaseline(async (settings) => {
	const count = BigInt(settings.tokens.length);
	const clients = await Promise.all(settings.tokens.map((token) => loginBaselineClient(token, settings)));
	report({ event: 'ready', clients: clients.length });
	await waitForGo();

	const started = performance.now();
	let renamed = 0;
	let failed = 0;
	await Promise.all(
		clients.map(async ({ guild }, index) => {
			const members = await guild.members.fetch();
			report({ event: 'fetched', members: members.size, ms: Math.round(performance.now() - started) });
			const nick = (member: GuildMember): string => `${settings.prefix} ${member.id}`;
			const slice = members.filter((member) => (BigInt(member.id) >> 22n) % count === BigInt(index) && member.nickname !== nick(member));
			await Promise.all(
				slice.map((member) =>
					member.setNickname(nick(member)).then(
						() => renamed++,
						() => failed++,
					),
				),
			);
		}),
	);
	report({ event: 'done', renamed, failed, ms: Math.round(performance.now() - started) });
});
