import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { SandboxRequest } from '@massnick/discord-sandbox';
import { NodeChild } from './NodeChild.js';
import { benchResultsFile, CONFIG_DIR, MAIN_SCRIPT } from './paths.js';
import { SandboxProcess } from './SandboxProcess.js';

/**
 * `npm run bench:fleet`: a fleet at the size one guild allows. 49 workers (the most one server
 * holds besides the boss) on a 1,000,000-member guild, split over P processes (pods) that each
 * run `massnick run massnick` for the workers they hold, as the Kubernetes Indexed Job does. Each
 * pod lists the whole guild itself; with one shared LISTER_TOKEN the pods share one token's
 * listing allowance (10 pages per 10 s), each taking only its workers' slots of it, so past some
 * P the listing, not the renames, paces them. With 49 workers a pod needs 49 ÷ 1000 pages a
 * second whatever it holds, and k workers' slots give it k ÷ 49 × 0.9 pages a second: full rate
 * from 3 workers a pod, so up to 16 pods.
 *
 * Per row: the fleet's renames as a share of its 49 workers' ceiling over the measured window,
 * and each pod's idle share (its workers' ceiling it did not use), measured from the sandbox's
 * request log, at Discord's own time scale (1) by default, so the pods' slots are the ones a real
 * fleet takes. Written to bench/results-fleet.json.
 *
 *   npm run bench:fleet [-- --time-scale 1 --window 100 --members 1000000 --rows 16:shared,49:own]
 */
const { values } = parseArgs({
	options: {
		'time-scale': { type: 'string', default: '1' },
		window: { type: 'string', default: '100' },
		members: { type: 'string', default: '1000000' },
		/** Some rows only, e.g. `16:shared,49:own`. */
		rows: { type: 'string' },
	},
});
const TIME_SCALE = Number(values['time-scale']);
const WINDOW_S = Number(values.window);
const MEMBERS = Number(values.members);
const WORKERS = 49;
const MEMBER_PATCH = '/guilds/:id/members/:id';
const LIST_ROUTE = '/guilds/:id/members';

interface Row {
	pods: number;
	/** `shared`: every pod lists with the one LISTER_TOKEN; `own`: each pod with its own workers' tokens (their apps have the intent). */
	listing: 'shared' | 'own';
}
const ALL_ROWS: Row[] = [
	{ pods: 7, listing: 'shared' },
	{ pods: 16, listing: 'shared' },
	{ pods: 17, listing: 'shared' },
	{ pods: 25, listing: 'shared' },
	{ pods: 49, listing: 'shared' },
	{ pods: 49, listing: 'own' },
];
const ROWS: Row[] =
	values.rows === undefined
		? ALL_ROWS
		: values.rows.split(',').map((row) => {
				const [pods, listing] = row.split(':');
				if (!/^\d+$/.test(pods ?? '') || (listing !== 'shared' && listing !== 'own')) throw new Error(`--rows: "${row}" is not pods:shared or pods:own`);
				return { pods: Number(pods), listing };
			});

const say = (line: string): void => void process.stdout.write(`${line}\n`);
const workDir = await mkdtemp(join(tmpdir(), 'massnick-fleet-'));
const logDir = join(workDir, 'logs');
await mkdir(logDir, { recursive: true });
const settings = JSON.parse(await readFile(join(CONFIG_DIR, 'massnick.json'), 'utf8')) as Record<string, unknown>;

say(`fleet: ${WORKERS} workers on ${MEMBERS.toLocaleString('en')} members, time scale ${TIME_SCALE}, ${WINDOW_S} s measured per row`);
const results: unknown[] = [];
for (const row of ROWS) {
	// A fresh guild per row: every row starts from nobody renamed. 49 workers, the boss and the
	// generated guild's 4 other bots are 54 bots: past what one server holds by the other bots only.
	const sandbox = await SandboxProcess.start({
		members: MEMBERS,
		workers: WORKERS,
		timeScale: TIME_SCALE,
		seed: 7,
		integrationLimit: WORKERS + 5,
		...(row.listing === 'own' ? { workerMembersIntent: true } : {}),
		logDir,
		startTimeoutMs: 180_000,
	});
	const { info, control } = sandbox;
	const workerOf = new Map(sandbox.workerIds.map((id, index) => [id, index]));
	// Pod p holds the workers p, p + P, p + 2P...: as even as 49 splits.
	const podWorkers = Array.from({ length: row.pods }, (_, pod) => Array.from({ length: WORKERS }, (_, id) => id).filter((id) => id % row.pods === pod));
	const podOfWorker = new Map(podWorkers.flatMap((ids, pod) => ids.map((id) => [id, pod] as const)));
	const pods: NodeChild[] = [];
	try {
		for (const [pod, ids] of podWorkers.entries()) {
			const dir = join(workDir, `row-${row.pods}-${row.listing}`, `pod-${pod}`);
			await mkdir(join(dir, 'config'), { recursive: true });
			await writeFile(join(dir, 'config', 'massnick.json'), JSON.stringify(settings, null, 2));
			pods.push(
				new NodeChild({
					name: `pod ${pod}`,
					script: MAIN_SCRIPT,
					args: ['run', 'massnick', '--name', `F${row.pods} {id}`],
					cwd: dir,
					env: {
						BOSS_TOKEN: '',
						WORKER_TOKENS: info.workerTokens.join(','),
						WORKER_COUNT: String(WORKERS),
						WORKER_IDS: ids.join(','),
						...(row.listing === 'shared' ? { LISTER_TOKEN: info.bossToken } : {}),
						GUILD_ID: info.guildId,
						DISCORD_API_URL: info.apiUrl,
						MASSNICK_DATA_DIR: join(dir, 'data'),
						LOG_LEVEL: 'info',
					},
					logFile: join(logDir, `fleet-${row.pods}-${row.listing}-pod-${pod}.log`),
				}),
			);
		}
		await Promise.all(pods.map((pod) => pod.waitForLine((line) => line.includes('"msg":"job started"'), 300_000, 'its job started')));
		const podsStarted = Date.now();
		// Settled once every pod has renamed (its first pages come in its slots, which it learns
		// the length of from Discord's headers), and ten seconds more; then the window.
		const waiting = new Set(podWorkers.keys());
		let seen = (await control.requests(0, 1)).lastSeq;
		const settleBy = Date.now() + 600_000;
		while (waiting.size > 0) {
			if (Date.now() > settleBy) throw new Error(`fleet: pods ${[...waiting].join(', ')} renamed nobody in 10 minutes`);
			await new Promise((resolve) => setTimeout(resolve, 1000));
			for (;;) {
				const page = await control.requests(seen, 50_000);
				if (page.requests.length === 0) break;
				seen = page.requests.at(-1)!.seq;
				for (const request of page.requests) {
					if (request.method !== 'PATCH' || request.route !== MEMBER_PATCH || request.status !== 200) continue;
					const worker = workerOf.get(request.botUserId ?? '');
					if (worker !== undefined) waiting.delete(podOfWorker.get(worker)!);
				}
			}
		}
		const settledAfter = Math.round((Date.now() - podsStarted) / 1000);
		await new Promise((resolve) => setTimeout(resolve, 10_000));
		const { lastSeq: from } = await control.requests(0, 1);
		const startedAt = Date.now();
		await new Promise((resolve) => setTimeout(resolve, WINDOW_S * 1000));
		const endedAt = Date.now();
		const requests: SandboxRequest[] = [];
		for (let after = from; ; ) {
			const page = await control.requests(after, 50_000);
			if (page.requests.length === 0) break;
			requests.push(...page.requests.filter((request) => request.at <= endedAt));
			after = page.requests.at(-1)!.seq;
			if (page.requests.at(-1)!.at > endedAt) break;
		}
		const seconds = (endedAt - startedAt) / 1000;
		const perWorkerCeiling = (10 * TIME_SCALE * seconds) / 10;
		const renames = requests.filter((request) => request.method === 'PATCH' && request.route === MEMBER_PATCH && request.status === 200);
		const byPod = new Array<number>(row.pods).fill(0);
		for (const request of renames) {
			const worker = workerOf.get(request.botUserId ?? '');
			if (worker !== undefined) byPod[podOfWorker.get(worker)!]! += 1;
		}
		const idle = byPod.map((count, pod) => 1 - count / (podWorkers[pod]!.length * perWorkerCeiling));
		const pages = requests.filter((request) => request.method === 'GET' && request.route === LIST_ROUTE && request.status === 200).length;
		const listing429 = requests.filter((request) => request.route === LIST_ROUTE && request.status === 429).length;
		const share = renames.length / (WORKERS * perWorkerCeiling);
		const sortedIdle = [...idle].sort((a, b) => a - b);
		const line = {
			pods: row.pods,
			listing: row.listing,
			workersPerPod: `${Math.min(...podWorkers.map((ids) => ids.length))}–${Math.max(...podWorkers.map((ids) => ids.length))}`,
			shareOfCeiling: Math.round(share * 10_000) / 10_000,
			podIdle: {
				min: Math.round(sortedIdle[0]! * 1000) / 1000,
				median: Math.round(sortedIdle[Math.floor(sortedIdle.length / 2)]! * 1000) / 1000,
				max: Math.round(sortedIdle.at(-1)! * 1000) / 1000,
			},
			listingPagesPerSecond: Math.round((pages / seconds) * 100) / 100,
			listingPageCeilingPerSecond: row.listing === 'shared' ? TIME_SCALE : TIME_SCALE * row.pods,
			listing429s: listing429,
			rateLimited429s: requests.filter((request) => request.status === 429).length,
			settledAfterSeconds: settledAfter,
			forbidden403s: requests.filter((request) => request.status === 403).length,
		};
		results.push(line);
		say(
			`  ${String(row.pods).padStart(2)} pods, listing ${row.listing.padEnd(6)}: ${(share * 100).toFixed(1)}% of the ceiling; pods idle ${(line.podIdle.min * 100).toFixed(0)}–${(line.podIdle.max * 100).toFixed(0)}% (median ${(line.podIdle.median * 100).toFixed(0)}%); ${line.listingPagesPerSecond} pages/s of ${line.listingPageCeilingPerSecond}; ${line.rateLimited429s} 429s, ${line.forbidden403s} 403s`,
		);
	} finally {
		await Promise.all(pods.map((pod) => pod.kill()));
		await sandbox.stop();
	}
}
await writeFile(
	benchResultsFile('results-fleet.json'),
	`${JSON.stringify(
		{
			benchmark: 'massnick npm run bench:fleet (issue #18)',
			date: new Date().toISOString(),
			machine: { cpus: cpus().length, node: process.version },
			setup: { workers: WORKERS, members: MEMBERS, timeScale: TIME_SCALE, windowSeconds: WINDOW_S },
			method: {
				shareOfCeiling: "the fleet's renames (PATCH member 200) in the window ÷ (49 workers × 10 per 10 s ÷ time scale × the window)",
				podIdle: "per pod, 1 − its workers' renames ÷ their ceiling: the share of its allowance it left unused",
				listing:
					'shared: every pod lists with the one LISTER_TOKEN (10 pages per 10 s between them); own: each pod with its own workers, whose apps have the Server Members intent',
			},
			rows: results,
		},
		null,
		2,
	)}\n`,
);
say('written to bench/results-fleet.json');
await rm(workDir, { recursive: true, force: true });
