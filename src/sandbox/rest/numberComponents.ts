import type { APIMessageTopLevelComponent } from 'discord-api-types/v10';

/** Any component, as far as numbering goes: an id, and children in `components` or `accessory`. */
interface NumberedNode {
	id?: number;
	components?: NumberedNode[];
	accessory?: NumberedNode;
}

/**
 * A copy of a message's components in which every component has an `id`, as Discord returns
 * them: the ones a bot left out (or set to 0) are numbered from 1 in document order, a parent
 * before its children, skipping ids the message already uses.
 *
 * @see {@link https://discord.com/developers/docs/components/reference#anatomy-of-a-component}
 */
export function numberComponents(components: readonly APIMessageTopLevelComponent[]): APIMessageTopLevelComponent[] {
	const copy = structuredClone(components) as unknown as NumberedNode[];
	const nodes: NumberedNode[] = [];
	const visit = (node: NumberedNode): void => {
		if (typeof node !== 'object' || node === null) return;
		nodes.push(node);
		node.components?.forEach(visit);
		if (node.accessory) visit(node.accessory);
	};
	copy.forEach(visit);
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
