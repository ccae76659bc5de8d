import type { APIMessageTopLevelComponent } from 'discord-api-types/v10';
import { walkComponents, type ComponentNode } from './walkComponents.js';

/**
 * A copy of a message's components in which every component has an `id`, as Discord returns
 * them: the ones a bot left out (or set to 0) are numbered from 1 in document order, a parent
 * before its children, skipping ids the message already uses.
 *
 * @see {@link https://discord.com/developers/docs/components/reference#anatomy-of-a-component}
 */
export function numberComponents(components: readonly APIMessageTopLevelComponent[]): APIMessageTopLevelComponent[] {
	const copy = structuredClone(components) as unknown as ComponentNode[];
	const nodes: ComponentNode[] = [];
	walkComponents(copy, (node) => nodes.push(node));
	const used = new Set(nodes.map((node) => node.id).filter((id) => typeof id === 'number' && id > 0));
	let next = 1;
	for (const node of nodes) {
		if (typeof node.id === 'number' && node.id > 0) continue;
		while (used.has(next)) next++;
		node.id = next;
		used.add(next);
	}
	return copy as unknown as APIMessageTopLevelComponent[];
}
