/**
 * A large English stop-word list for keyword queries: function words, auxiliaries,
 * pronouns, question words, and the filler of chat ("yeah", "really", "gonna").
 * Content words that carry meaning in a question (names, places, "job", "book") are not here.
 */
const WORDS = `
a about above across actually after afterwards again against ago ah all almost alone along already also
although always am among amongst an and another any anybody anyhow anyone anything anyway anyways anywhere
are aren aren't around as aside at away awfully b back be became because become becomes becoming been before
beforehand behind being below beside besides best better between beyond both brief but by c came can can't
cannot cant certain certainly clearly co com come comes could couldn couldn't d did didn didn't do does doesn
doesn't doing don don't done down during e each eg eh either else elsewhere enough especially et etc even ever
every everybody everyone everything everywhere ex exactly example except f far few fine for former formerly
from further furthermore g get gets getting given gives go goes going gone gonna good got gotten gotta h had
hadn hadn't happens hardly has hasn hasn't have haven haven't having he he'd he'll he's hello hence her here
here's hereafter hereby herein hereupon hers herself hey hi him himself his hmm hopefully how however i i'd
i'll i'm i've ie if im in inc indeed instead into is isn isn't it it'd it'll it's its itself j just k keep
keeps kept kind kinda know known knows l last lately later least less lest let let's like liked likely ll lol
look looking looks lot lots ltd m made mainly make makes many may maybe me mean meanwhile merely might mine
more moreover most mostly much must mustn my myself n namely nd near nearly necessary need needs neither never
nevertheless no nobody non none noone nor normally not nothing now nowhere o obviously of off often oh ok okay
on once one ones only onto or other others otherwise ought our ours ourselves out outside over overall own p
particular particularly per perhaps please plus possible presumably probably q que quite r rather rd re
really reasonably regarding regardless regards relatively respectively right s said same say saying says
see seeing seem seemed seeming seems seen self selves sensible sent serious seriously several shall shan she
she'd she'll she's should shouldn shouldn't since so some somebody somehow someone something sometime
sometimes somewhat somewhere soon sorry specified specify specifying still sub such sup sure t take taken
taking tell tends th than thank thanks thanx that that's thats the their theirs them themselves then thence
there there's thereafter thereby therefore therein theres thereupon these they they'd they'll they're
they've thing things think thinking this thorough thoroughly those though through throughout thru thus to
together too took toward towards tried tries truly try trying twice u un under unless until unto up upon us
use used useful uses using usually uucp v various ve very via viz vs w wanna want wants was wasn wasn't way we
we'd we'll we're we've well went were weren weren't what what's whatever when whence whenever where where's
whereafter whereas whereby wherein whereupon wherever whether which while whither who who's whoever whole
whom whose why will willing wish with within without won won't wonder would wouldn wouldn't wow x y yeah yes
yet yo you you'd you'll you're you've your yours yourself yourselves yup z
`;

export const STOP_WORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter(Boolean));
