import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ControlMember, SandboxControl, type SandboxRequest, startSandbox } from '@massnick/discord-sandbox';
import { renderProgressLine } from '../present/index.js';
import { loadConfig, secretsOf } from '../config/index.js';
import type { Job } from '../jobs/index.js';
import { createLogger } from '../log/createLogger.js';
import { type Massnick, startMassnick } from '../startMassnick.js';

const DEMO = {
	members: 3000,
	workers: 10,
	/**
	 * Every rate-limit window is 40 times shorter than Discord's: a worker renames 40 members a
	 * second instead of one, so the demo ends in well under a minute with the same shape.
	 */
	timeScale: 40,
	name: '🎃 {display_name}',
};

/**
 * `npm run demo`: a local guild, ten workers, a rename and a restore end to end, with no
 * Discord account. Each command first shows its private preview (what will happen, to how many,
 * how long it takes), which the demo prints and then presses Start on, as the member would.
 * Exits non-zero if the guild does not end where it should.
 */
export async function runDemo(_args: string[]): Promise<number> {
	const out = process.stdout;
	const say = (line = ''): void => void out.write(`${line}\n`);
	const dataDir = await mkdtemp(join(tmpdir(), 'massnick-demo-'));
	say(`Starting a sandbox guild with ${DEMO.members.toLocaleString('en')} members and ${DEMO.workers} worker bots…`);
	const sandbox = await startSandbox({ members: DEMO.members, workers: DEMO.workers, seed: 1, timeScale: DEMO.timeScale, heartbeatIntervalMs: 2000 });
	const control = new SandboxControl(sandbox.controlUrl);
	let massnick: Massnick | undefined;
	try {
		const loaded = loadConfig({
			env: {
				BOSS_TOKEN: sandbox.bossToken,
				WORKER_TOKENS: sandbox.workerTokens.join(','),
				GUILD_ID: sandbox.guildId,
				DISCORD_API_URL: sandbox.apiUrl,
				MASSNICK_DATA_DIR: dataDir,
				LOG_LEVEL: 'warn',
			},
			dotenvPath: false,
		});
		// discord.js waits 50 ms past each rate-limit reset for clock skew; with windows 40 times
		// shorter the skew allowance shrinks with them (the sandbox is on this machine).
		const config = { ...loaded, rest: { ...loaded.rest, offsetMs: 2 }, statusRefreshSeconds: 2 };
		const logger = createLogger({ level: config.logLevel, secrets: secretsOf(config), destination: 2 });
		massnick = await startMassnick(config, logger);
		say(`The boss and ${massnick.fleet.size} workers are online; slash commands registered.\n`);

		const before = new Map((await control.members(sandbox.guildId)).map((member) => [member.id, member]));

		say(`/massnick name:${DEMO.name}   (run as the server owner)`);
		const rename = await runCommand(control, sandbox, massnick, 'massnick', { name: DEMO.name });
		const renamed = await control.members(sandbox.guildId);

		say('\n/stats');
		const statsId = await control.invoke(sandbox.guildId, sandbox.ownerId, 'stats', {}, sandbox.channelId);
		say(indent(contentOf(await control.waitForResponses(statsId, 2, 60_000))));

		say('\n/shards');
		const shardsId = await control.invoke(sandbox.guildId, sandbox.ownerId, 'shards', {}, sandbox.channelId);
		say(indent(contentOf(await control.waitForResponses(shardsId, 1))));

		say('\n/restore');
		const restore = await runCommand(control, sandbox, massnick, 'restore', {});
		const after = await control.members(sandbox.guildId);

		const { requests } = await control.requests();
		const check = verify(before, renamed, after, rename, requests);
		say('\nSummary');
		say(table(rename, restore));
		say();
		for (const line of check.lines) say(`${check.ok ? '✓' : '✗'} ${line}`);
		say(check.ok ? '\nThe guild was renamed and restored as it should be.' : '\nThe guild did NOT end where it should.');
		return check.ok ? 0 : 1;
	} finally {
		await massnick?.stop();
		await sandbox.close();
		await rm(dataDir, { recursive: true, force: true });
	}
}

async function runCommand(
	control: SandboxControl,
	sandbox: { guildId: string; ownerId: string; channelId: string },
	massnick: Massnick,
	command: string,
	options: Record<string, unknown>,
): Promise<Job> {
	const previous = massnick.jobs.last;
	const id = await control.invoke(sandbox.guildId, sandbox.ownerId, command, options, sandbox.channelId);
	// The deferral, then the preview (or, in a guild below preview.skipBelowMembers, the start).
	const answered = await control.waitForResponses(id, 2);
	const preview = await control.message(sandbox.channelId, answered.originalMessageId!);
	const start = preview.components.flatMap((row) => row.components ?? []).find((button) => button.custom_id?.endsWith(':start'));
	if (start?.custom_id) {
		const embed = preview.embeds[0] as { title?: string; description?: string } | undefined;
		process.stdout.write(`${indent(plain([`${embed?.title ?? ''}  (private to the member who ran it)`, embed?.description ?? ''].join('\n')))}\n`);
		process.stdout.write(`  (the time is at Discord's limits; the sandbox runs its windows ${DEMO.timeScale} times faster)\n  [Start] pressed\n`);
		await control.pressButton(sandbox.guildId, sandbox.ownerId, sandbox.channelId, preview.id, start.custom_id);
	}
	const job = await waitFor(() => (massnick.jobs.last === previous ? undefined : massnick.jobs.last));
	const width = Math.min(process.stdout.columns || 80, 100);
	while (!job.result) {
		process.stdout.write(`\r${renderProgressLine(job.progress.snapshot(), width)}`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	process.stdout.write(`\r${renderProgressLine(job.progress.snapshot(), width)}\n`);
	if (job.result.error) throw job.result.error;
	return job;
}

async function waitFor<T>(get: () => T | undefined, timeoutMs = 10_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = get();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error('the job did not start');
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
}

function contentOf(interaction: { responses: Array<{ body?: unknown }> }): string {
	const last = interaction.responses.at(-1)?.body as
		| {
				content?: string;
				data?: { content?: string; embeds?: Array<{ description?: string; title?: string }> };
				embeds?: Array<{ description?: string; title?: string }>;
		  }
		| undefined;
	const data = last?.data ?? last;
	const embed = data?.embeds?.[0];
	return [data?.content, embed?.title, embed?.description].filter(Boolean).join('\n');
}

/** Discord's markdown as a terminal shows it: no bold markers, timestamps as times. */
function plain(text: string): string {
	return text
		.replace(/\*\*/g, '')
		.replace(/\\([*_~`|>\\])/g, '$1')
		.replace(/<t:(\d+):R>/g, (_, seconds: string) => `at ${new Date(Number(seconds) * 1000).toLocaleTimeString('en-GB')}`);
}

function indent(text: string): string {
	return text
		.split('\n')
		.map((line) => `  ${line}`)
		.join('\n');
}

function table(rename: Job, restore: Job): string {
	const a = rename.progress.snapshot();
	const b = restore.progress.snapshot();
	const rows: Array<[string, string | number, string | number]> = [
		['members seen', a.total, b.total],
		['changed', a.changed, b.changed],
		['already done', a.alreadyDone, b.alreadyDone],
		["can't rename", a.cant, b.cant],
		['left alone', a.skipped, b.skipped],
		['failed', a.failed, b.failed],
		['seconds', (a.elapsedMs / 1000).toFixed(1), (b.elapsedMs / 1000).toFixed(1)],
	];
	const line = (cells: Array<string | number>): string => `  ${String(cells[0]).padEnd(14)}${String(cells[1]).padStart(10)}${String(cells[2]).padStart(10)}`;
	return [line(['', '/massnick', '/restore']), ...rows.map(line)].join('\n');
}

function verify(
	before: Map<string, ControlMember>,
	renamed: ControlMember[],
	after: ControlMember[],
	rename: Job,
	requests: SandboxRequest[],
): { ok: boolean; lines: string[] } {
	const lines: string[] = [];
	let ok = true;
	const snapshot = rename.progress.snapshot();
	const changed = renamed.filter((member) => member.nick !== before.get(member.id)?.nick).length;
	const expectChanged = snapshot.changed;
	const renameOk = changed === expectChanged && snapshot.failed === 0 && expectChanged > 0;
	ok &&= renameOk;
	lines.push(`/massnick changed ${changed} nicknames (the workers reported ${expectChanged}, ${snapshot.failed} failed)`);
	const notRestored = after.filter((member) => member.nick !== before.get(member.id)?.nick);
	ok &&= notRestored.length === 0;
	lines.push(`/restore gave every member their original nickname back (${notRestored.length} differ)`);
	const untouched = renamed.filter((member) => member.nick === before.get(member.id)?.nick).map((member) => member.id);
	const requested = new Set(requests.filter((request) => request.method === 'PATCH').map((request) => request.targetId));
	const refused = requests.filter((request) => request.status === 403 || request.status === 429).length;
	const cantOk = snapshot.cant > 0 && refused === 0 && untouched.every((id) => !requested.has(id));
	ok &&= cantOk;
	lines.push(`${snapshot.cant} members above the bots (the owner, moderators, admins) were left alone without a request; ${refused} answers were 403 or 429`);
	return { ok, lines };
}
