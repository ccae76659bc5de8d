import { expect } from 'vitest';
import type { Job } from '../../src/jobs/Job.js';
import type { Stack } from './startStack.js';
import { waitUntil } from './waitUntil.js';

/**
 * Starts a standing rule from its preview (`keep: true`), as its member would, and waits until
 * its sweep is over and it follows joins: what it sends from then on is for joiners. `userId`
 * makes it (the owner by default).
 */
export async function startRule(stack: Stack, command: string, options: Record<string, unknown>, userId = stack.sandbox.ownerId): Promise<Job> {
	const known = new Set(stack.massnick.jobs.rules.all);
	const preview = await stack.preview(command, { ...options, keep: true }, userId);
	expect((preview.message.embeds[0] as { description?: string } | undefined)?.description ?? preview.message.content).toMatch(/standing rule/i);
	await stack.press(preview.message.id, preview.start, userId);
	let rule: Job | undefined;
	await waitUntil(
		() => {
			rule = stack.massnick.jobs.rules.all.find((job) => !known.has(job) && job.following);
			const sweep = rule?.progress.snapshot();
			return sweep !== undefined && sweep.done >= sweep.total;
		},
		{ what: `/${command} keep to follow joins`, timeoutMs: 60_000 },
	);
	return rule!;
}
