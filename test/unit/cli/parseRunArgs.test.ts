import { describe, expect, it } from 'vitest';
import { kickModule } from '../../../src/actions/kick/kickModule.js';
import { nicknameModule } from '../../../src/actions/nickname/nicknameModule.js';
import { banModule } from '../../../src/actions/ban/banModule.js';
import { roleModule } from '../../../src/actions/role/roleModule.js';
import { parseRunArgs, runUsage } from '../../../src/cli/parseRunArgs.js';

const ROLE = '281552675818965825';
const OTHER = '281552650653140328';

function problemOf(args: string[]): string {
	const parsed = parseRunArgs(args);
	if (parsed.kind !== 'invalid') throw new Error(`expected a problem, got ${JSON.stringify(parsed)}`);
	return parsed.problem;
}

describe('parseRunArgs', () => {
	it('reads run massnick with its filters, in both --flag value and --flag=value forms', () => {
		expect(parseRunArgs(['massnick', '--name', '🎃 {display_name}', `--role=${ROLE}`, '--exclude-role', OTHER, '--dry-run'])).toEqual({
			kind: 'run',
			request: {
				kind: 'action',
				job: 'massnick',
				module: nicknameModule,
				subcommand: undefined,
				options: { name: '🎃 {display_name}', role: ROLE, exclude_role: OTHER },
				dryRun: true,
				progressEveryMs: 10_000,
			},
		});
	});

	it('reads run massrole add and remove; --role is the role to give there, --only-role the filter', () => {
		expect(parseRunArgs(['massrole', 'remove', '--role', ROLE, '--only-role', OTHER, '--progress-every', '2.5'])).toEqual({
			kind: 'run',
			request: {
				kind: 'action',
				job: 'massrole',
				module: roleModule,
				subcommand: 'remove',
				options: { role: ROLE, only_role: OTHER },
				dryRun: false,
				progressEveryMs: 2500,
			},
		});
	});

	it('reads run massban with its own flags, checked against the choices Discord would offer', () => {
		expect(parseRunArgs(['massban', '--delete-messages', '1h', '--reason', 'raid', '--joined-after', '10m'])).toMatchObject({
			kind: 'run',
			request: {
				kind: 'action',
				job: 'massban',
				module: banModule,
				options: { delete_messages: '1h', reason: 'raid', joined_after: '10m' },
				confirmCount: undefined,
			},
		});
		// A ban of more than 100 members is confirmed by its count, as a kick is.
		expect(parseRunArgs(['massban', '--joined-after', '10m', '--confirm-count', '2000'])).toMatchObject({
			request: { job: 'massban', options: { joined_after: '10m' }, confirmCount: 2000 },
		});
		expect(problemOf(['massban', '--delete-messages', '2h'])).toMatch(/--delete-messages is one of none, 1h, 6h, 12h, 24h, 3d, 7d, got "2h"/);
	});

	it('reads run restore with and without the fallback name', () => {
		expect(parseRunArgs(['restore'])).toEqual({
			kind: 'run',
			request: { kind: 'restore', job: 'restore', name: undefined, pastIrreversible: false, dryRun: false, progressEveryMs: 10_000 },
		});
		expect(parseRunArgs(['restore', '--skip-irreversible'])).toMatchObject({ request: { job: 'restore', pastIrreversible: true } });
		expect(parseRunArgs(['restore', '--name=Guest {id}', '--dry-run'])).toMatchObject({
			kind: 'run',
			request: { job: 'restore', name: 'Guest {id}', dryRun: true },
		});
	});

	it('reads run masskick with its reason and --confirm-count, the number of members it is to kick', () => {
		expect(parseRunArgs(['masskick', '--reason', 'raid', '--joined-after', '10m', '--confirm-count', '2000'])).toEqual({
			kind: 'run',
			request: {
				kind: 'action',
				job: 'masskick',
				module: kickModule,
				subcommand: undefined,
				options: { reason: 'raid', joined_after: '10m' },
				confirmCount: 2000,
				dryRun: false,
				progressEveryMs: 10_000,
			},
		});
		expect(parseRunArgs(['masskick', '--dry-run'])).toMatchObject({ request: { confirmCount: undefined, dryRun: true } });
		expect(problemOf(['masskick', '--confirm-count', '2,000'])).toBe(
			'--confirm-count needs the number of members the job changes, as digits (run it with --dry-run to count them), got "2,000"',
		);
		// A job whose module asks for no count has no such flag.
		expect(problemOf(['massnick', '--name', 'x', '--confirm-count', '3'])).toMatch(/^--confirm-count is not an option of run massnick/);
	});

	it('a value may hold "=" and spaces when given inline', () => {
		expect(parseRunArgs(['massnick', '--name=a = b'])).toMatchObject({ request: { options: { name: 'a = b' } } });
	});

	it('reads run lockdown: on by default for 24 hours, --hours, --dms or --no-dms; off alone', () => {
		expect(parseRunArgs(['lockdown'])).toEqual({ kind: 'lockdown', request: { kind: 'lockdown', off: false, hours: 24, dms: undefined } });
		expect(parseRunArgs(['lockdown', 'on', '--hours', '6', '--dms'])).toEqual({
			kind: 'lockdown',
			request: { kind: 'lockdown', off: false, hours: 6, dms: true },
		});
		expect(parseRunArgs(['lockdown', '--hours=2', '--no-dms'])).toEqual({ kind: 'lockdown', request: { kind: 'lockdown', off: false, hours: 2, dms: false } });
		expect(parseRunArgs(['lockdown', 'off'])).toEqual({ kind: 'lockdown', request: { kind: 'lockdown', off: true } });
	});

	it('refuses a lockdown past 24 hours, or not in whole hours, naming --hours and the bound', () => {
		expect(problemOf(['lockdown', '--hours', '25'])).toMatch(
			/^--hours must be a whole number from 1 to 24, got 25: Discord pauses invites and DMs for at most 24 hours/,
		);
		expect(problemOf(['lockdown', '--hours', '1.5'])).toMatch(/^--hours must be a whole number from 1 to 24, got 1.5/);
		expect(problemOf(['lockdown', '--hours', 'six'])).toMatch(/^--hours must be a whole number from 1 to 24/);
		expect(problemOf(['lockdown', '--hours'])).toMatch(/--hours needs a whole number from 1 to 24/);
		expect(problemOf(['lockdown', '--dms', '--no-dms'])).toMatch(/give --dms or --no-dms once/);
		expect(problemOf(['lockdown', 'off', '--hours', '2'])).toMatch(/run lockdown off takes nothing more, got "--hours"/);
		expect(problemOf(['lockdown', '--dry-run'])).toMatch(/unknown option --dry-run; run lockdown takes on or off, --hours, --dms, --no-dms/);
	});

	it('--help anywhere asks for the usage', () => {
		expect(parseRunArgs(['--help'])).toEqual({ kind: 'help' });
		expect(parseRunArgs(['massnick', '--bogus', '-h'])).toEqual({ kind: 'help' });
	});

	it('names the job that is missing or unknown', () => {
		expect(problemOf([])).toMatch(/which job.*massnick, massrole, sanitize, clearnicks, masstimeout, masskick, massban, restore or lockdown/);
		expect(problemOf(['massrename'])).toMatch(/unknown job "massrename"/);
		expect(problemOf(['massrole', '--role', ROLE])).toMatch(/add or remove.*got "--role"/);
	});

	it('names an unknown flag, and a flag of another job, with the flags this job takes', () => {
		expect(problemOf(['massnick', '--name', 'x', '--nme', 'y'])).toMatch(/unknown option --nme; run massnick takes --name, --role/);
		expect(problemOf(['massnick', '--name', 'x', '--only-role', ROLE])).toMatch(/--only-role is not an option of run massnick/);
		expect(problemOf(['restore', '--role', ROLE])).toMatch(/--role is not an option of run restore/);
	});

	it('names the flag whose value is missing, or that is given twice', () => {
		expect(problemOf(['massnick'])).toMatch(/run massnick needs --name <text>: the nickname, or a template/);
		expect(problemOf(['massrole', 'add'])).toMatch(/run massrole add needs --role <id>/);
		expect(problemOf(['massnick', '--name'])).toBe('--name needs a value');
		expect(problemOf(['massnick', '--name', '--dry-run'])).toMatch(/--name needs a value \(write --name=--dry-run if that is the value\)/);
		expect(problemOf(['massnick', '--name', 'a', '--name', 'b'])).toBe('--name is given twice');
		expect(problemOf(['massnick', '--name', 'a', '--dry-run=yes'])).toBe('--dry-run takes no value');
	});

	it('a role flag needs a snowflake, not a role name', () => {
		expect(problemOf(['massrole', 'add', '--role', 'Event'])).toMatch(/--role needs a role id \(17 to 20 digits.*got "Event"/);
		expect(problemOf(['massnick', '--name', 'x', '--exclude-role', '12'])).toMatch(/--exclude-role needs a role id/);
	});

	it('checks a text as Discord checks the option: within its length', () => {
		expect(problemOf(['massnick', '--name', 'x'.repeat(101)])).toBe('--name takes at most 100 characters, got 101');
		expect(problemOf(['massnick', '--name='])).toBe('--name needs at least 1 characters');
	});

	it("lists every module's job in the usage, with the engine's filters", () => {
		const usage = runUsage();
		expect(usage).toContain('massnick --name <template>');
		expect(usage).toContain('massrole add|remove --role <id>');
		expect(usage).toMatch(/--exclude-role <id>\s+leave members with this role alone/);
	});

	it('refuses a stray argument and a progress interval that is not a positive number of seconds', () => {
		expect(problemOf(['massnick', 'Guest', '--name', 'x'])).toMatch(/unexpected argument "Guest"/);
		for (const value of ['0', '-1', 'soon', '', '7200'])
			expect(problemOf(['restore', `--progress-every=${value}`])).toMatch(/--progress-every needs a number of seconds/);
	});
});
