/**
 * Wikis for the graph's browser test and screenshots: a household's 24 entity pages with real
 * names (of different lengths, so labels are of different widths), and a seeded one of 1,000 pages
 * with a few hubs, as real memories grow them.
 */
import { projectFile } from './web-fixture.js';
import { hubLinks, mulberry32 } from '../../scripts/bench-util.js';

const HOUSEHOLD: [string, string][] = [
  ['People', 'Sarah Chen'],
  ['People', 'David Kim'],
  ['People', 'Grandma Rosa'],
  ['People', 'Dr. Amelia Okonkwo-Hartley'],
  ['People', 'Leo'],
  ['People', 'Mia'],
  ['People', 'Mr. Petrovic (neighbour)'],
  ['Places', 'Lisbon'],
  ['Places', 'Alfama flat'],
  ['Places', 'Tiles museum'],
  ['Places', 'Riverside primary school'],
  ['Places', 'Allotment'],
  ['Topics', 'Summer trip 2027'],
  ['Topics', 'Piano lessons'],
  ['Topics', 'Kitchen renovation budget'],
  ['Topics', 'Car'],
  ['Topics', 'Birthday party for Mia'],
  ['Health', 'Leo’s asthma plan'],
  ['Health', 'Dentist'],
  ['Work', 'Acme contract renewal'],
  ['Work', 'Globex'],
  ['Work', 'Tax return 2026'],
  ['Pets', 'Biscuit the dog'],
  ['Pets', 'Vet appointments'],
];

function page(category: string, title: string, related: string[]): string {
  const links = related.map((r) => `- [[${r}]] (related)`).join('\n');
  return `---\nschema: 1\ntitle: ${title}\ncategory: ${category}\n---\n\nAbout ${title}.\n\n## Related\n${links}\n`;
}

const slugOf = (category: string, title: string) => `${category}/${title.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;

/** 24 linked pages of a household, under projects/<slug>/notes. */
export function householdWiki(slug: string): Record<string, string> {
  const files: Record<string, string> = { [`${slug}/project.md`]: projectFile(slug, `web:${slug}`) };
  HOUSEHOLD.forEach(([category, title], i) => {
    // everyone links to the two hubs, and to the page two further on
    const related = [0, 12, (i + 2) % HOUSEHOLD.length, (i * 5 + 3) % HOUSEHOLD.length].filter((j) => j !== i).map((j) => slugOf(...(HOUSEHOLD[j] ?? HOUSEHOLD[0] ?? ['Topics', 'x'])));
    files[`${slug}/notes/${slugOf(category, title)}.md`] = page(category, title, [...new Set(related)]);
  });
  return files;
}

const WORDS = ['Garden', 'School', 'Holiday', 'Budget', 'Doctor', 'Recipe', 'Concert', 'Insurance', 'Library', 'Bicycle', 'Football', 'Passport', 'Landlord', 'Boiler', 'Wedding'];

/** `count` linked pages (deterministic), a few hubs collecting many links. */
export function bigWiki(slug: string, count: number): Record<string, string> {
  const rand = mulberry32(11);
  const categories = ['People', 'Places', 'Topics', 'Work', 'Trips', 'Health'];
  const files: Record<string, string> = { [`${slug}/project.md`]: projectFile(slug, `web:${slug}`) };
  const title = (i: number) => `${WORDS[i % WORDS.length] ?? 'Page'} ${i}`;
  const path = (i: number) => slugOf(categories[i % categories.length] ?? 'Topics', title(i));
  for (let i = 0; i < count; i++) {
    const links = hubLinks(rand, i, count);
    files[`${slug}/notes/${path(i)}.md`] = page(
      categories[i % categories.length] ?? 'Topics',
      title(i),
      [...links].map((j) => path(j)),
    );
  }
  return files;
}
