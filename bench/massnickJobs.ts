import type { SandboxControl } from '@massnick/discord-sandbox';
import type { MassnickKind } from './Subject.js';

/** What a massnick subject is told to do once started. */
export interface MassnickJob {
	kind: MassnickKind;
	/** The slash command as typed, subcommand included: `massnick`, `massrole add`. */
	command: string;
	/** Its options, by name (a role by id). */
	options: Record<string, unknown>;
}

/** The sandbox guild's role that nobody holds, below the bots' role: the one `/massrole add` hands out. */
const EVENT_ROLE = 'Event';

/**
 * What `/sanitize` is given when nothing readable is left of a name: not the default
 * `{username}`, which leaves alone a member whose display name alone is unreadable (Discord keeps
 * no nickname equal to the username), so that every decorated member has a name to be given.
 */
export const SANITIZE_FALLBACK = 'Member {id}';

/** The nickname {@link SANITIZE_FALLBACK} gives the member `id`. */
export function sanitizeFallbackOf(id: string): string {
	return SANITIZE_FALLBACK.replace('{id}', id);
}

/**
 * `/massnick name:<name>`; a dry run lists and plans every member and renames nobody. `filters`
 * are more of the command's options, as typed (`members: 'humans'`, `joined_after: '2015-06-01'`).
 */
export function renameJob(name: string, options: { dryRun?: boolean; filters?: Readonly<Record<string, unknown>> } = {}): MassnickJob {
	return { kind: 'massnick', command: 'massnick', options: { name, ...options.filters, ...(options.dryRun ? { dry_run: true } : {}) } };
}

/** `/sanitize fallback:<SANITIZE_FALLBACK>`: every member whose shown name needs cleaning gets one PATCH. */
export function sanitizeJob(): MassnickJob {
	return { kind: 'massnick-sanitize', command: 'sanitize', options: { fallback: SANITIZE_FALLBACK } };
}

/** `/massrole add role:<Event>`: every member lacks it, so every member gets one PUT. */
export async function eventRoleJob(control: SandboxControl): Promise<MassnickJob> {
	const { roles } = await control.state();
	const role = roles.find((candidate) => candidate.name === EVENT_ROLE);
	if (!role) throw new Error(`the sandbox guild has no role named ${EVENT_ROLE} (roles: ${roles.map((candidate) => candidate.name).join(', ')})`);
	return { kind: 'massnick-role', command: 'massrole add', options: { role: role.id } };
}
