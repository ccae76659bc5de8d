/**
 * Baseline 1: the loop everyone writes first. One bot, the whole member list from the gateway
 * into discord.js's cache, then one awaited `setNickname` after another. A member it may not
 * rename (the owner, anyone above its role) costs a 403 and the loop goes on.
 *
 * Started by `npm run bench` with the `BENCH_*` settings of baselineChild.ts; it runs until killed.
 */
import { loginBaselineClient, report, runBaseline, waitForGo } from './baselineChild.js';

await runBaseline(async (settings) => {
	const [token] = settings.tokens;
	if (token === undefined) throw new Error('the single-token baseline needs one token');
	const { guild } = await loginBaselineClient(token, settings);
	report({ event: 'ready', clients: 1 });
	await waitForGo();

	const started = performance.now();
	const members = await guild.members.fetch();
	report({ event: 'fetched', members: members.size, ms: Math.round(performance.now() - started) });
	let renamed = 0;
	let failed = 0;
	for (const member of members.values()) {
		try {
			await member.setNickname(`${settings.prefix} ${member.id}`);
			renamed++;
		} catch {
			failed++;
		}
	}
	report({ event: 'done', renamed, failed, ms: Math.round(performance.now() - started) });
});
