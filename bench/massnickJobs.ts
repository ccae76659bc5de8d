import type { SandboxControl } from '../src/cli/SandboxControl.js';
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

/** `/massnick name:<name>`; a dry run lists and plans every member and renames nobody. */
export function renameJob(name: string, options: { dryRun?: boolean } = {}): MassnickJob {
	return { kind: 'massnick', command: 'massnick', options: { name, ...(options.dryRun ? { dry_run: true } : {}) } };
}

/** `/massrole add role:<Event>`: every member lacks it, so every member gets one PUT. */
export async function eventRoleJob(control: SandboxControl): Promise<MassnickJob> {
	const { roles } = await control.state();
	const role = roles.find((candidate) => candidate.name === EVENT_ROLE);
	if (!role) throw new Error(`the sandbox guild has no role named ${EVENT_ROLE} (roles: ${roles.map((candidate) => candidate.name).join(', ')})`);
	return { kind: 'massnick-role', command: 'massrole add', options: { role: role.id } };
}
