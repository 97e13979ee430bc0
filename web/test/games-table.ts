// The server's table of the games (GET /api/variants) for the unit tests:
// variants.json is the server's answer, checked against the server by its
// own test (tests/server: ServerTest.TheTableOfTheGamesIsTheClientsFixture).
import { readFileSync } from 'node:fs';
import { GameInfo, setGames } from '../src/games.js';

const table = JSON.parse(readFileSync(new URL('./variants.json', import.meta.url), 'utf8')) as { variants: GameInfo[] };
setGames(table.variants);
