import { setTimeout as sleep } from 'node:timers/promises';
import type { SandboxControl } from '@massnick/discord-sandbox';
import { RequestTally } from './RequestTally.js';
import type { Subject } from './Subject.js';

/** Discord's page size ceiling for List Guild Members. */
export const MEMBERS_PER_PAGE = 1000;

/** List Guild Members: 10 pages per 10 s per token (docs/discord.md), as the sandbox enforces. */
export const PAGES_PER_WINDOW = 10;

export interface MeasureListingOptions {
	/** The boss's bot user id: the pages it asks for are the ones timed. */
	bossId: string;
	/** Gives up on a listing not done by then, in ms from go. */
	timeoutMs: number;
}

/** One full listing of the guild; times are the sandbox's answer times (Unix ms). */
export interface ListingMeasurement {
	/** Members in the guild, as the sandbox counts them. */
	members: number;
	/** List Guild Members pages the boss was answered (200). */
	pages: number;
	/** Pages answered to any other bot: 0 when the boss lists alone. */
	pagesByOthers: number;
	firstPageAt: number;
	lastPageAt: number;
	/** From just before `/massnick` to the last page. */
	goToLastPageMs: number;
	/** Median time between two of the boss's pages in a row: a page's round trip when no rate-limit wait falls between them. */
	medianPageIntervalMs: number;
	/** Median time from page 1 to page 11, 11 to 21, ...: what one window's allowance of 10 pages really took. */
	medianTenPagesMs: number;
	rateLimited429: number;
	forbidden403: number;
	refusals: Record<string, number>;
}

const POLL_MS = 200;

/**
 * Times how long the boss takes to page through every member, from the sandbox's request log.
 * The subject is massnick started for `/massnick dry_run:true`: a dry run lists the whole guild
 * and plans every member but sends no rename and writes no journal, so its slices empty their
 * queues as fast as pages come and never hold the listing back (the queues' backpressure is what
 * paces the listing of a real run to the renames). What is left to pace it is the route's rate
 * limit, 10 pages per 10 s per token, and each page's round trip.
 *
 * The listing is done once the boss has been answered `floor(members / 1000) + 1` pages: it
 * stops at the first page shorter than 1000, which is an empty one when 1000 divides the count.
 */
export async function measureListing(subject: Subject, control: SandboxControl, options: MeasureListingOptions): Promise<ListingMeasurement> {
	const members = await guildSize(control);
	const expectedPages = Math.floor(members / MEMBERS_PER_PAGE) + 1;
	const tally = await RequestTally.fromNow(control, subject.change);
	const goAt = Date.now();
	await subject.go();
	const deadline = goAt + options.timeoutMs;
	const bossPages = (): readonly number[] => tally.listedAtByBot.get(options.bossId) ?? [];
	while (bossPages().length < expectedPages) {
		if (!subject.running) throw subject.failure('exited while listing');
		if (Date.now() > deadline) {
			throw subject.failure(
				`listed ${bossPages().length} of ${expectedPages} pages within ${options.timeoutMs / 1000} s (${tally.rateLimited} 429s, ${tally.forbidden} 403s); ${await subject.diagnose()}`,
			);
		}
		await sleep(POLL_MS);
		await tally.poll();
	}
	const pages = bossPages();
	const firstPageAt = pages[0]!;
	const lastPageAt = pages[pages.length - 1]!;
	const intervals = pages.slice(1).map((at, index) => at - pages[index]!);
	const tens: number[] = [];
	for (let index = PAGES_PER_WINDOW; index < pages.length; index += PAGES_PER_WINDOW) tens.push(pages[index]! - pages[index - PAGES_PER_WINDOW]!);
	let pagesByOthers = 0;
	for (const [bot, times] of tally.listedAtByBot) if (bot !== options.bossId) pagesByOthers += times.length;
	return {
		members,
		pages: pages.length,
		pagesByOthers,
		firstPageAt,
		lastPageAt,
		goToLastPageMs: lastPageAt - goAt,
		medianPageIntervalMs: median(intervals),
		medianTenPagesMs: median(tens),
		rateLimited429: tally.rateLimited,
		forbidden403: tally.forbidden,
		refusals: Object.fromEntries([...tally.refusals].sort(([a], [b]) => (a < b ? -1 : 1))),
	};
}

/** The guild's member count, which `GET /_sandbox/state` reports beside what SandboxControl types. */
async function guildSize(control: SandboxControl): Promise<number> {
	const { members } = (await control.state()) as { members?: unknown };
	if (typeof members !== 'number' || !Number.isInteger(members) || members < 0)
		throw new Error(`the sandbox's state reports no member count: ${String(members)}`);
	return members;
}

function median(values: readonly number[]): number {
	if (values.length === 0) return 0;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
