import { hash32 } from './random.js';

const ADJECTIVES = [
	'quiet',
	'brave',
	'lucky',
	'sleepy',
	'cosmic',
	'tiny',
	'fuzzy',
	'swift',
	'golden',
	'silent',
	'wild',
	'happy',
	'rusty',
	'frozen',
	'neon',
	'mellow',
	'crispy',
	'shy',
	'bold',
	'salty',
	'sunny',
	'stormy',
	'misty',
	'velvet',
	'pixel',
	'lunar',
	'solar',
	'arctic',
	'crimson',
	'hidden',
	'noble',
	'rapid',
	'gentle',
	'spicy',
	'clever',
	'odd',
	'ancient',
	'electric',
	'paper',
	'iron',
	'glass',
	'amber',
	'jade',
	'scarlet',
	'little',
	'mighty',
	'lazy',
	'dizzy',
	'vivid',
	'honest',
	'secret',
	'proud',
	'calm',
	'grumpy',
	'jolly',
	'brisk',
	'hollow',
	'wandering',
	'sneaky',
	'soft',
	'shiny',
	'dusty',
	'magic',
	'true',
] as const;

const NOUNS = [
	'otter',
	'falcon',
	'panda',
	'fox',
	'raven',
	'badger',
	'tiger',
	'whale',
	'moth',
	'cactus',
	'comet',
	'pebble',
	'maple',
	'willow',
	'dragon',
	'koala',
	'lynx',
	'heron',
	'bison',
	'gecko',
	'walrus',
	'ferret',
	'owl',
	'wolf',
	'toast',
	'noodle',
	'muffin',
	'waffle',
	'pickle',
	'biscuit',
	'mango',
	'lemon',
	'nebula',
	'quasar',
	'pixel',
	'byte',
	'wizard',
	'knight',
	'ranger',
	'bard',
	'pilot',
	'sailor',
	'ninja',
	'golem',
	'sprite',
	'goblin',
	'phoenix',
	'kraken',
	'river',
	'canyon',
	'meadow',
	'glacier',
	'ember',
	'storm',
	'breeze',
	'thunder',
	'shadow',
	'echo',
	'spark',
	'frost',
	'acorn',
	'clover',
	'sparrow',
	'beetle',
] as const;

const FIRST_NAMES = [
	'Aiko',
	'Ben',
	'Chloé',
	'Dmitri',
	'Elif',
	'Farah',
	'Gustav',
	'Hana',
	'Ines',
	'Jonas',
	'Kemal',
	'Lena',
	'Mateo',
	'Nadia',
	'Oskar',
	'Priya',
	'Quinn',
	'Rafael',
	'Sofia',
	'Tomás',
	'Uma',
	'Viktor',
	'Wen',
	'Ximena',
	'Yusuf',
	'Zoë',
	'Anna',
	'Björn',
	'Carla',
	'Darius',
	'Emma',
	'Felix',
	'Greta',
	'Hugo',
	'Isla',
	'Jakub',
	'Kira',
	'Luca',
	'Maya',
	'Noah',
	'Olga',
	'Pablo',
	'Rosa',
	'Sven',
	'Tara',
	'Ugo',
	'Vera',
	'Will',
	'Yara',
	'Zane',
	'Ade',
	'Bo',
	'Cai',
	'Dev',
	'Eun-ji',
	'Fatima',
	'Giulia',
	'Haruto',
	'Ivan',
	'Jin',
	'Kofi',
	'Leila',
	'Mei',
	'Niamh',
] as const;

const NICK_DECORATIONS = ['', '', '', ' ✨', ' 🎮', ' 🌙', ' | afk', ' (she/her)', ' (he/him)', ' 🐸', ' ☕', ' ⚡'] as const;

function pick<T>(items: readonly T[], value: number): T {
	return items[value % items.length] as T;
}

function capitalise(word: string): string {
	return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * A bijection on 32-bit integers: distinct indices always give distinct results, which makes
 * usernames unique without storing them.
 */
function permute32(value: number): number {
	let x = value >>> 0;
	x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
	x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
	return (x ^ (x >>> 16)) >>> 0;
}

/** A unique, lowercase, pomelo-style username for the member at `index` (e.g. `quiet_otter3kf9x1`). */
export function generatedUsername(seed: number, index: number): string {
	const h = hash32(seed, index, 1);
	const separator = pick(['', '_', '.', ''], h >>> 12);
	return `${pick(ADJECTIVES, h)}${separator}${pick(NOUNS, h >>> 6)}${permute32(index ^ seed).toString(36)}`;
}

/** The display name (`global_name`) for the member at `index`; about one in six has none. */
export function generatedGlobalName(seed: number, index: number): string | null {
	const h = hash32(seed, index, 2);
	if (h % 6 === 0) return null;
	return h % 3 === 0 ? `${capitalise(pick(ADJECTIVES, h >>> 4))} ${capitalise(pick(NOUNS, h >>> 10))}` : pick(FIRST_NAMES, h >>> 4);
}

/** The nickname a member had before the sandbox started, for members generated with one. */
export function generatedNick(seed: number, index: number): string {
	const h = hash32(seed, index, 3);
	const base = h % 2 === 0 ? pick(FIRST_NAMES, h >>> 3) : `${capitalise(pick(NOUNS, h >>> 3))}${pick(['', 'Main', 'Fan', '99', 'TTV'], h >>> 9)}`;
	return `${base}${pick(NICK_DECORATIONS, h >>> 13)}`;
}

/** First names of ASCII letters only, for names a decoration is drawn over (see decoratedNames.ts). */
const ASCII_FIRST_NAMES = FIRST_NAMES.filter((name) => /^[A-Za-z]+$/.test(name));
const SHORT_FIRST_NAMES = ASCII_FIRST_NAMES.filter((name) => name.length <= 6);

/**
 * A plain ASCII name for the member at `index` (`Bob`, `Brave Falcon`), drawn with `salt`; with
 * `short`, always one first name of at most six letters.
 */
export function generatedPlainName(seed: number, index: number, salt: number, short = false): string {
	const h = hash32(seed, index, salt);
	const first = pick(short ? SHORT_FIRST_NAMES : ASCII_FIRST_NAMES, h >>> 4);
	return short || h % 3 !== 0 ? first : `${capitalise(pick(ADJECTIVES, h >>> 4))} ${capitalise(pick(NOUNS, h >>> 10))}`;
}

/** A fraction in [0, 1) derived from a member's index, for values computed on demand (join dates). */
export function generatedFraction(seed: number, index: number, salt: number): number {
	return hash32(seed, index, salt) / 4_294_967_296;
}
