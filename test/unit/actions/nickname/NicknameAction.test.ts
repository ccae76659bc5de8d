import { describe, expect, it } from 'vitest';
import { ClearNamedNicknameAction } from '../../../../src/actions/nickname/ClearNamedNicknameAction.js';
import { NicknameAction } from '../../../../src/actions/nickname/NicknameAction.js';
import { parseTemplate, type Template } from '../../../../src/actions/shared/nicknameEdits/index.js';
import type { MemberRecord } from '../../../../src/discord/MemberRecord.js';
import { type GuildContext, highestPosition } from '../../../../src/jobs/GuildContext.js';
import type { Plan as EnginePlan, RestoreEntry } from '../../../../src/jobs/Plan.js';
import { planMember, planRestore as planEngineRestore } from '../../../../src/jobs/planner.js';
import { GUILD_ID as GUILD, guildContext, OWNER_ID as OWNER } from '../../../support/guildContext.js';

/** A /massnick job as these tests describe it: the template and the engine's role filters. */
interface RenameJobSpec {
	template: Template;
	roleId?: string | undefined;
	excludeRoleId?: string | undefined;
}

/** A plan as these tests spell it: a change is a `rename` to its target (its `from` is checked below). */
type Plan = Exclude<EnginePlan, { action: 'change' }> | { action: 'rename'; to: string | null };

function spelled(plan: EnginePlan, member: MemberRecord): Plan {
	if (plan.action !== 'change') return plan;
	// A change always starts from the nickname the member has now.
	expect(plan.from).toBe(member.nick);
	return { action: 'rename', to: plan.to };
}

/** The engine's plan of one /massnick member: its filters, then the nickname action. */
function planRename(target: MemberRecord, spec: RenameJobSpec, context: GuildContext, original?: string | null): Plan {
	return spelled(
		planMember(target, new NicknameAction(spec.template), { onlyRoleId: spec.roleId, excludeRoleId: spec.excludeRoleId }, context, original),
		target,
	);
}

/** The engine's restore of one journaled member, with the nickname action that wrote the journal. */
function planRestore(target: MemberRecord, entry: RestoreEntry, context: GuildContext, template = parseTemplate('🎃 {display_name}')): Plan {
	const plan = planEngineRestore(target, entry, new NicknameAction(template), context);
	return plan.action === 'change' ? { action: 'rename', to: plan.to } : plan;
}

/** `/restore name:` without a journal: the engine's filters (none), then the clear action. */
function planClear(target: MemberRecord, template: Template, context: GuildContext): Plan {
	return spelled(planMember(target, new ClearNamedNicknameAction(template), {}, context), target);
}

const BOSS = '100000000000000002';
const WORKER = '100000000000000003';
const ROLE_LOW = '200000000000000001'; // position 1
const ROLE_EVENT = '200000000000000002'; // position 2
const ROLE_WORKER = '200000000000000005'; // position 5, the workers' role
const ROLE_STAFF = '200000000000000009'; // position 9

const ctx = guildContext({
	roles: [
		[ROLE_LOW, 1],
		[ROLE_EVENT, 2],
		[ROLE_WORKER, 5],
		[ROLE_STAFF, 9],
	],
	botUserIds: [BOSS, WORKER],
	workerHighestPosition: 5,
});

function member(overrides: Partial<MemberRecord> = {}): MemberRecord {
	return { id: '300000000000000001', username: 'alice', globalName: 'Alice', nick: null, roles: [], bot: false, ...overrides };
}

function job(text: string, extra: Partial<RenameJobSpec> = {}): RenameJobSpec {
	return { template: parseTemplate(text), ...extra };
}

const pumpkin = job('🎃 {display_name}');

/** What Discord stores after a PATCH setting `to`: a nick equal to the username is no nick. */
function applied(target: MemberRecord, to: string | null): MemberRecord {
	return { ...target, nick: to === null || to === target.username ? null : to };
}

describe('planRename', () => {
	it('a member without a nickname is renamed to the expansion', () => {
		expect(planRename(member(), pumpkin, ctx)).toEqual({ action: 'rename', to: '🎃 Alice' });
	});

	it('a rerun plans no rename: a member at the target is done', () => {
		expect(planRename(member({ nick: '🎃 Alice' }), pumpkin, ctx)).toEqual({ action: 'done' });
	});

	it('a member whose nickname differs is renamed, whatever it was', () => {
		expect(planRename(member({ nick: 'ally' }), pumpkin, ctx)).toEqual({ action: 'rename', to: '🎃 Alice' });
	});

	it('a target equal to the username is done for a member with no nickname (Discord stores it as none)', () => {
		expect(planRename(member(), job('{username}'), ctx)).toEqual({ action: 'done' });
		expect(planRename(member({ nick: 'ally' }), job('{username}'), ctx)).toEqual({ action: 'rename', to: 'alice' });
	});

	it('our boss and workers are never renamed, even when they look renameable', () => {
		expect(planRename(member({ id: BOSS, bot: true }), pumpkin, ctx)).toEqual({ action: 'skip', reason: 'own-bot' });
		expect(planRename(member({ id: WORKER, bot: true, nick: '🎃 Alice' }), pumpkin, ctx)).toEqual({ action: 'skip', reason: 'own-bot' });
	});

	it('other bots are renamed like members', () => {
		expect(planRename(member({ bot: true }), pumpkin, ctx).action).toBe('rename');
	});

	it('the owner is never requested', () => {
		expect(planRename(member({ id: OWNER }), pumpkin, ctx)).toEqual({ action: 'cant', reason: 'owner' });
	});

	it('a member at or above the workers’ highest role is never requested', () => {
		expect(planRename(member({ roles: [ROLE_WORKER] }), pumpkin, ctx)).toEqual({ action: 'cant', reason: 'hierarchy' });
		expect(planRename(member({ roles: [ROLE_LOW, ROLE_STAFF] }), pumpkin, ctx)).toEqual({ action: 'cant', reason: 'hierarchy' });
		expect(planRename(member({ roles: [ROLE_LOW, ROLE_EVENT] }), pumpkin, ctx).action).toBe('rename');
	});

	it('a member we cannot rename who already has the target is done, not cant', () => {
		expect(planRename(member({ id: OWNER, nick: '🎃 Alice' }), pumpkin, ctx)).toEqual({ action: 'done' });
		expect(planRename(member({ roles: [ROLE_STAFF], nick: '🎃 Alice' }), pumpkin, ctx)).toEqual({ action: 'done' });
	});

	it('a role filter leaves out members without the role, and is checked before done', () => {
		const onlyEvent = job('🎃 {display_name}', { roleId: ROLE_EVENT });
		expect(planRename(member(), onlyEvent, ctx)).toEqual({ action: 'skip', reason: 'not-in-role' });
		expect(planRename(member({ nick: '🎃 Alice' }), onlyEvent, ctx)).toEqual({ action: 'skip', reason: 'not-in-role' });
		expect(planRename(member({ roles: [ROLE_EVENT] }), onlyEvent, ctx).action).toBe('rename');
	});

	it('the @everyone role (the guild id) as a filter means everyone', () => {
		expect(planRename(member(), job('x', { roleId: GUILD }), ctx)).toEqual({ action: 'rename', to: 'x' });
	});

	it('an excluded role leaves its members out, even the owner', () => {
		const notStaff = job('x', { excludeRoleId: ROLE_EVENT });
		expect(planRename(member({ roles: [ROLE_EVENT] }), notStaff, ctx)).toEqual({ action: 'skip', reason: 'excluded-role' });
		expect(planRename(member({ id: OWNER, roles: [ROLE_EVENT] }), notStaff, ctx)).toEqual({ action: 'skip', reason: 'excluded-role' });
		expect(planRename(member(), notStaff, ctx).action).toBe('rename');
	});

	it('excluding @everyone leaves everyone out', () => {
		expect(planRename(member(), job('x', { excludeRoleId: GUILD }), ctx)).toEqual({ action: 'skip', reason: 'excluded-role' });
	});

	it('a name that expands to blanks is skipped, never sent as a clear', () => {
		expect(planRename(member({ username: ' ', globalName: null }), job('{username}'), ctx)).toEqual({ action: 'skip', reason: 'empty-name' });
	});

	it('a {nick} template is not applied twice on a rerun without a journal', () => {
		const nick = job('🎃 {nick}');
		const first = planRename(member({ nick: 'ally' }), nick, ctx);
		expect(first).toEqual({ action: 'rename', to: '🎃 ally' });
		expect(planRename(member({ nick: '🎃 ally' }), nick, ctx)).toEqual({ action: 'done' });
	});

	it('a {nick} template expands from the journaled original on a rerun', () => {
		const nick = job('🎃 {nick}');
		expect(planRename(member({ nick: '🎃 ally' }), nick, ctx, 'ally')).toEqual({ action: 'done' });
		// Renamed by someone else mid-job: the original still decides the target.
		expect(planRename(member({ nick: 'changed' }), nick, ctx, 'ally')).toEqual({ action: 'rename', to: '🎃 ally' });
		expect(planRename(member({ nick: 'changed' }), nick, ctx, null)).toEqual({ action: 'rename', to: '🎃 Alice' });
	});

	it('unknown roles count as the bottom of the list', () => {
		expect(highestPosition(member({ roles: ['999999999999999999'] }), ctx)).toBe(0);
		expect(highestPosition(member({ roles: [ROLE_EVENT, ROLE_LOW] }), ctx)).toBe(2);
		expect(highestPosition(member(), ctx)).toBe(0);
	});
});

describe('planRename over every combination', () => {
	const ids = { member: '300000000000000001', owner: OWNER, ownBot: WORKER };
	const roleSets = { none: [], low: [ROLE_LOW], event: [ROLE_EVENT], worker: [ROLE_WORKER], staff: [ROLE_STAFF, ROLE_EVENT] };
	const nicks = { none: null, target: '🎃 Alice', other: 'ally', username: 'alice' };
	const filters = { none: undefined, everyone: GUILD, event: ROLE_EVENT };
	const excludes = { none: undefined, event: ROLE_EVENT, staff: ROLE_STAFF };
	const templates = { display: '🎃 {display_name}', username: '{username}', plain: 'April Fool' };

	type Case = { name: string; target: MemberRecord; spec: RenameJobSpec; plan: Plan; roles: readonly string[]; id: string };
	const cases: Case[] = [];
	for (const [idName, id] of Object.entries(ids))
		for (const [roleName, roles] of Object.entries(roleSets))
			for (const [nickName, nick] of Object.entries(nicks))
				for (const [filterName, roleId] of Object.entries(filters))
					for (const [excludeName, excludeRoleId] of Object.entries(excludes))
						for (const [templateName, text] of Object.entries(templates))
							for (const bot of [false, true]) {
								const target = member({ id, roles, nick, bot });
								const spec = job(text, { roleId, excludeRoleId });
								cases.push({
									name: `${idName}/${roleName}/${nickName}/${filterName}/${excludeName}/${templateName}/${bot}`,
									target,
									spec,
									plan: planRename(target, spec, ctx),
									roles,
									id,
								});
							}

	it(`covers ${3 * 5 * 4 * 3 * 3 * 3 * 2} combinations`, () => {
		expect(cases).toHaveLength(3 * 5 * 4 * 3 * 3 * 3 * 2);
	});

	it('follows the documented order: skip, then done, then cant, then rename', () => {
		for (const { name, target, spec, plan, roles, id } of cases) {
			const inRole = spec.roleId === undefined || spec.roleId === GUILD || roles.includes(spec.roleId);
			const excluded = spec.excludeRoleId !== undefined && roles.includes(spec.excludeRoleId);
			const to = spec.template.source === '{username}' ? 'alice' : spec.template.source === 'April Fool' ? 'April Fool' : '🎃 Alice';
			const isDone = target.nick === to || (target.nick === null && to === 'alice');
			const top = Math.max(0, ...roles.map((role) => ctx.rolePositions.get(role) ?? 0));
			let expected: Plan;
			if (id === WORKER) expected = { action: 'skip', reason: 'own-bot' };
			else if (!inRole) expected = { action: 'skip', reason: 'not-in-role' };
			else if (excluded) expected = { action: 'skip', reason: 'excluded-role' };
			else if (isDone) expected = { action: 'done' };
			else if (id === OWNER) expected = { action: 'cant', reason: 'owner' };
			else if (top >= ctx.workerHighestPosition) expected = { action: 'cant', reason: 'hierarchy' };
			else expected = { action: 'rename', to };
			expect(plan, name).toEqual(expected);
		}
	});

	it('every plan is one of the four actions, and every action occurs', () => {
		const actions = new Set(cases.map(({ plan }) => plan.action));
		expect([...actions].sort()).toEqual(['cant', 'done', 'rename', 'skip']);
	});

	it('after each planned rename lands, planning again says done (idempotent)', () => {
		let renames = 0;
		for (const { name, target, spec, plan } of cases) {
			if (plan.action !== 'rename') continue;
			renames++;
			expect(planRename(applied(target, plan.to), spec, ctx), name).toEqual({ action: 'done' });
		}
		expect(renames).toBeGreaterThan(0);
	});

	it('the owner, our bots and members at or above the workers are never planned a rename', () => {
		for (const { name, plan, roles, id } of cases) {
			const top = Math.max(0, ...roles.map((role) => ctx.rolePositions.get(role) ?? 0));
			if (id === OWNER || id === WORKER || top >= 5) expect(plan.action, name).not.toBe('rename');
		}
	});
});

describe('planRestore', () => {
	const entry = { id: '300000000000000001', from: 'ally', to: '🎃 Alice' };

	it('a member still at the name the job set goes back to the original', () => {
		expect(planRestore(member({ nick: '🎃 Alice' }), entry, ctx)).toEqual({ action: 'rename', to: 'ally' });
	});

	it('a member who had no nickname is cleared (to: null)', () => {
		expect(planRestore(member({ nick: '🎃 Alice' }), { ...entry, from: null }, ctx)).toEqual({ action: 'rename', to: null });
	});

	it('a member already back at the original is done', () => {
		expect(planRestore(member({ nick: 'ally' }), entry, ctx)).toEqual({ action: 'done' });
		expect(planRestore(member({ nick: null }), { ...entry, from: null }, ctx)).toEqual({ action: 'done' });
	});

	it('a member who chose a new nickname since keeps it', () => {
		expect(planRestore(member({ nick: 'my own name' }), entry, ctx)).toEqual({ action: 'skip', reason: 'changed-since' });
		expect(planRestore(member({ nick: null }), entry, ctx)).toEqual({ action: 'skip', reason: 'changed-since' });
	});

	it('a job that set the username (stored as no nick) still restores', () => {
		expect(planRestore(member({ nick: null }), { ...entry, to: 'alice' }, ctx)).toEqual({ action: 'rename', to: 'ally' });
	});

	it('the owner and members above the workers are cant, never requested', () => {
		expect(planRestore(member({ id: OWNER, nick: '🎃 Alice' }), entry, ctx)).toEqual({ action: 'cant', reason: 'owner' });
		expect(planRestore(member({ roles: [ROLE_STAFF], nick: '🎃 Alice' }), entry, ctx)).toEqual({ action: 'cant', reason: 'hierarchy' });
	});

	it('our own bots are skipped', () => {
		expect(planRestore(member({ id: BOSS, nick: '🎃 Alice' }), entry, ctx)).toEqual({ action: 'skip', reason: 'own-bot' });
	});

	it('over every combination: done before changed-since before cant, and a restore lands as done', () => {
		const nicks = [null, 'ally', '🎃 Alice', 'alice', 'other'];
		const froms = [null, 'ally', 'alice'];
		const tos = ['🎃 Alice', 'alice'];
		let count = 0;
		for (const id of [entry.id, OWNER, WORKER])
			for (const roles of [[], [ROLE_EVENT], [ROLE_WORKER]])
				for (const nick of nicks)
					for (const from of froms)
						for (const to of tos) {
							count++;
							const target = member({ id, roles, nick });
							const line = { id, from, to };
							// The journal's `to` is what the job's template gave this member.
							const template = parseTemplate(to === 'alice' ? '{username}' : '🎃 {display_name}');
							const plan = planRestore(target, line, ctx, template);
							const holds = (name: string | null) => target.nick === name || (target.nick === null && name === 'alice');
							const name = JSON.stringify({ id, roles, nick, from, to });
							if (id === WORKER) expect(plan, name).toEqual({ action: 'skip', reason: 'own-bot' });
							else if (from === null ? nick === null : holds(from)) expect(plan, name).toEqual({ action: 'done' });
							else if (!holds(to)) expect(plan, name).toEqual({ action: 'skip', reason: 'changed-since' });
							else if (id === OWNER) expect(plan, name).toEqual({ action: 'cant', reason: 'owner' });
							else if (roles.length > 0 && roles[0] === ROLE_WORKER) expect(plan, name).toEqual({ action: 'cant', reason: 'hierarchy' });
							else {
								expect(plan, name).toEqual({ action: 'rename', to: from });
								expect(planRestore(applied(target, from), line, ctx, template), name).toEqual({ action: 'done' });
							}
						}
		expect(count).toBe(3 * 3 * 5 * 3 * 2);
	});
});

describe('planClear', () => {
	const target = parseTemplate('🎃 {display_name}');

	it('clears a nickname that is still the job’s target', () => {
		expect(planClear(member({ nick: '🎃 Alice' }), target, ctx)).toEqual({ action: 'rename', to: null });
	});

	it('leaves any other nickname alone', () => {
		expect(planClear(member({ nick: 'ally' }), target, ctx)).toEqual({ action: 'skip', reason: 'changed-since' });
	});

	it('a member with no nickname is done', () => {
		expect(planClear(member(), target, ctx)).toEqual({ action: 'done' });
	});

	it('a {nick} target is recognised after it was applied', () => {
		expect(planClear(member({ nick: '🎃 ally' }), parseTemplate('🎃 {nick}'), ctx)).toEqual({ action: 'rename', to: null });
		expect(planClear(member({ nick: 'ally' }), parseTemplate('🎃 {nick}'), ctx)).toEqual({ action: 'skip', reason: 'changed-since' });
	});

	it('the owner, members above the workers and our bots are never requested', () => {
		expect(planClear(member({ id: OWNER, nick: '🎃 Alice' }), target, ctx)).toEqual({ action: 'cant', reason: 'owner' });
		expect(planClear(member({ roles: [ROLE_STAFF], nick: '🎃 Alice' }), target, ctx)).toEqual({ action: 'cant', reason: 'hierarchy' });
		expect(planClear(member({ id: WORKER, nick: '🎃 Alice' }), target, ctx)).toEqual({ action: 'skip', reason: 'own-bot' });
	});

	it('a clear, once landed, is done', () => {
		const start = member({ nick: '🎃 Alice' });
		const plan = planClear(start, target, ctx);
		expect(plan.action).toBe('rename');
		expect(planClear(applied(start, null), target, ctx)).toEqual({ action: 'done' });
	});
});

describe('planRename with {nick} templates', () => {
	const templates = ['🎃 {nick}', '{nick} (guest)', '[{nick}]', '{nick}', '{username} aka {nick}', '🎃 {nick} the very great and powerful'];
	const nicks = [null, 'ally', 'a much longer nickname of thirty', 'with  spaces', '👻'];

	it('every rename, once landed, is done on a rerun with the journal and without it', () => {
		let renames = 0;
		for (const text of templates)
			for (const nick of nicks) {
				const spec = job(text);
				const start = member({ nick });
				const plan = planRename(start, spec, ctx);
				if (plan.action !== 'rename') continue;
				renames++;
				const after = applied(start, plan.to);
				const name = `${text} / ${String(nick)}`;
				expect(planRename(after, spec, ctx), name).toEqual({ action: 'done' });
				expect(planRename(after, spec, ctx, nick), name).toEqual({ action: 'done' });
			}
		expect(renames).toBeGreaterThan(15);
	});

	it('a restore of each such rename brings the original back and is then done', () => {
		for (const text of templates)
			for (const nick of nicks) {
				const start = member({ nick });
				const plan = planRename(start, job(text), ctx);
				if (plan.action !== 'rename') continue;
				const entry = { id: start.id, from: nick, to: plan.to };
				const renamed = applied(start, plan.to);
				const restore = planRestore(renamed, entry, ctx, parseTemplate(text));
				expect(restore, text).toEqual({ action: 'rename', to: nick });
				expect(planRestore(applied(renamed, nick), entry, ctx, parseTemplate(text)), text).toEqual({ action: 'done' });
			}
	});
});
