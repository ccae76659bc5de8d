import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as generated from 'discord-api-spec/zod';
import * as z from 'zod/mini';

/** The generated schemas by name (`GuildMemberResponseSchema`); its only other export is `setStrictObject`. */
const schemas = generated as unknown as Readonly<Record<string, z.ZodMiniType | undefined>>;

/** One REST operation of Discord's OpenAPI spec, with the schema of each response it documents. */
export interface SpecOperation {
	operationId: string;
	method: string;
	/** As the spec writes it: `/guilds/{guild_id}/members/{user_id}`. */
	path: string;
	/** By status (`200`, `204`, `429`, `4XX`); null for a response without a body. */
	responses: ReadonlyMap<string, z.ZodMiniType | null>;
}

/**
 * Every operation in the spec, by operationId. `discord-api-spec` ships Zod schemas for the
 * spec's components only; which component each operation answers with is in its generated
 * TypeScript, the `Paths` interface (`"200": GuildMemberResponse[];` under
 * `"/guilds/{guild_id}/members"` → `get`). That file can't be compiled here (the package isn't
 * an ES module, so TypeScript reads its exports as CommonJS), so it is read as text; its layout
 * is machine-written and fixed.
 */
export const specOperations: ReadonlyMap<string, SpecOperation> = readOperations(
	readFileSync(fileURLToPath(import.meta.resolve('discord-api-spec').replace(/\.js$/, '.ts')), 'utf8'),
);

/** The operation, or an error naming the id when the spec has none by that name. */
export function specOperation(operationId: string): SpecOperation {
	const operation = specOperations.get(operationId);
	if (!operation) throw new Error(`Discord's spec has no operation ${operationId}`);
	return operation;
}

function readOperations(source: string): Map<string, SpecOperation> {
	const start = source.indexOf('\nexport interface Paths {\n');
	const end = source.indexOf('\n}\n', start);
	if (start === -1 || end === -1) throw new Error('discord-api-spec: no Paths interface in the generated types');
	const lines = source.slice(start, end).split('\n');
	const operations = new Map<string, SpecOperation>();
	let path = '';
	let method = '';
	let operationId = '';
	let responses = new Map<string, z.ZodMiniType | null>();
	const finish = (): void => {
		if (operationId) operations.set(operationId, { operationId, method, path, responses });
		operationId = '';
		responses = new Map();
	};
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i]!;
		const pathLine = /^ {2}"(\/[^"]*)": \{$/.exec(line);
		const methodLine = /^ {4}(get|put|post|patch|delete): \{$/.exec(line);
		const idLine = /^ {8}\/\*\* \d{3} response for (\w+) \*\/$/.exec(line);
		const responseLine = /^ {8}"(\d{3}|\dXX)":(.*)$/.exec(line);
		if (pathLine) {
			finish();
			path = pathLine[1]!;
		} else if (methodLine) {
			finish();
			method = methodLine[1]!.toUpperCase();
		} else if (idLine) operationId = idLine[1]!;
		else if (responseLine) {
			const status = responseLine[1]!;
			// Long types span lines; one ends at the `;` that closes every bracket it opened.
			let type = responseLine[2]!.trim();
			while (!(type.endsWith(';') && balanced(type))) type += ` ${lines[++i]!.trim()}`;
			responses.set(status, status === '204' ? null : toSchema(type.slice(0, -1)));
		}
	}
	finish();
	return operations;
}

function balanced(text: string): boolean {
	const count = (pattern: RegExp): number => text.match(pattern)?.length ?? 0;
	return count(/\(/g) === count(/\)/g) && count(/\{/g) === count(/\}/g);
}

/**
 * The schema for a response type as the generated TypeScript writes it: a component name,
 * `number` or `string`, `T[]`, unions (with `null`), parentheses, and `{ [key: string]: T; }`.
 */
function toSchema(type: string): z.ZodMiniType {
	const tokens = type.match(/\[\]|[()|;{}[\]:]|\w+/g) ?? [];
	let at = 0;
	const fail = (): never => {
		throw new Error(`discord-api-spec: can't read the response type "${type}"`);
	};
	const take = (...expected: string[]): void => {
		for (const token of expected) if (tokens[at++] !== token) fail();
	};
	const union = (): z.ZodMiniType => {
		const members: z.ZodMiniType[] = [];
		let nullable = false;
		if (tokens[at] === '|') at++;
		do {
			if (tokens[at] === 'null') {
				at++;
				nullable = true;
			} else members.push(postfix());
		} while (tokens[at] === '|' && ++at);
		const base = members.length === 1 ? members[0]! : z.union(members);
		return nullable ? z.nullable(base) : base;
	};
	const postfix = (): z.ZodMiniType => {
		let schema = primary();
		for (; tokens[at] === '[]'; at++) schema = z.array(schema);
		return schema;
	};
	const primary = (): z.ZodMiniType => {
		const token = tokens[at++];
		if (token === '(') {
			const inner = union();
			take(')');
			return inner;
		}
		if (token === '{') {
			take('[', 'key', ':', 'string', ']', ':');
			const value = union();
			take(';', '}');
			return z.record(z.string(), value);
		}
		if (token === 'number') return z.number();
		if (token === 'string') return z.string();
		return (token === undefined ? undefined : schemas[`${token}Schema`]) ?? fail();
	};
	const schema = union();
	if (at !== tokens.length) fail();
	return schema;
}
