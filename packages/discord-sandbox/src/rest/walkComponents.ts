/** Any component, as far as walking goes: children in `components` or `accessory`. */
export interface ComponentNode {
	type?: unknown;
	id?: number;
	components?: ComponentNode[];
	accessory?: ComponentNode;
	[field: string]: unknown;
}

/**
 * Visits every component of a message in document order, a parent before its children, with
 * its path in the body as Discord's 50035 errors name it (`['components', 0, 'components', 1]`).
 * Children are found where Discord nests them: `components` (action rows, sections, containers)
 * and a section's `accessory`.
 *
 * @see {@link https://discord.com/developers/docs/components/reference#anatomy-of-a-component}
 */
export function walkComponents(components: readonly unknown[], visit: (node: ComponentNode, path: readonly (string | number)[]) => void): void {
	const walk = (nodes: readonly unknown[], base: readonly (string | number)[]): void => {
		nodes.forEach((node, index) => {
			if (typeof node !== 'object' || node === null) return;
			const component = node as ComponentNode;
			const path = [...base, index];
			visit(component, path);
			if (Array.isArray(component.components)) walk(component.components, [...path, 'components']);
			if (typeof component.accessory === 'object' && component.accessory !== null) {
				visit(component.accessory, [...path, 'accessory']);
				if (Array.isArray(component.accessory.components)) walk(component.accessory.components, [...path, 'accessory', 'components']);
			}
		});
	};
	walk(components, ['components']);
}
