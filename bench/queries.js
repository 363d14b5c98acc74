// Fixed realistic Bulgarian queries shared by the benchmarks (bench/run.js: search latency and the batch input;
// bench/load.js: throughput under concurrent clients). Changing them changes every figure measured with them.

/** Twenty realistic queries over statutes and decisions, one subject each. */
export const QUERIES = [
  'застрахователят отказва да изплати обезщетение',
  'обществени поръчки обжалване на решение',
  'изборен кодекс гласуване извън страната',
  'криптоактиви лиценз доставчик на услуги',
  'трудов договор прекратяване без предизвестие',
  'данък добавена стойност регистрация',
  'лишаване от свобода наказание',
  'защита на личните данни администратор',
  'концесия за строителство срок',
  'горски територии сеч',
  'хазарт лиценз организатор',
  'туроператор застраховка отговорност',
  'банка несъстоятелност гарантиране на влоговете',
  'марка регистрация отказ',
  'министерство на вътрешните работи полицейски орган',
  'общинска собственост разпореждане',
  'митническа декларация акциз',
  'здравно осигуряване вноски',
  'енергийна ефективност сгради',
  'обезщетение за вреди от държавата',
];

/**
 * The 200 most frequent words of the full corpus's article texts (a tenth sampled; 3 letters or more, no stopwords,
 * no digits, abbreviations such as „изм“ and „обн“ and place names left out), most frequent first: the words that
 * match the most articles, for the adversarial queries below.
 */
export const COMMON_WORDS = [
  'закона', 'думите', 'заменят', 'срок', 'закон', 'лице', 'следните', 'комисията', 'република', 'лица', 'създава',
  'информация', 'българия', 'регламент', 'събрание', 'правят', 'добавя', 'изменя', 'европейския', 'реда', 'размер',
  'изменения', 'община', 'министъра', 'министерството', 'съвет', 'разходи', 'дейност', 'съответно', 'решение',
  'услуги', 'орган', 'държава', 'съгласно', 'сила', 'средства', 'съюз', 'думата', 'допълнения', 'област', 'данни',
  'изискванията', 'член', 'извършва', 'включително', 'случаите', 'относно', 'условията', 'агенция', 'дейността',
  'развитие', 'управление', 'територията', 'органи', 'народното', 'производство', 'право', 'комисия', 'законът',
  'лицата', 'договор', 'членка', 'съответствие', 'икономиката', 'лицето', 'изпълнение', 'съд', 'дейности', 'заменя',
  'задължения', 'датата', 'фонд', 'разпоредби', 'мрежа', 'нарушение', 'енергия', 'определени', 'защита',
  'съответната', 'бюджет', 'националната', 'раздел', 'продукти', 'глава', 'енергетиката', 'министърът', 'ред',
  'свързани', 'изречение', 'извършване', 'съвета', 'мерки', 'осигуряване', 'прилага', 'изменение', 'приет',
  'държавен', 'държавния', 'печат', 'изпълнението', 'част', 'народно', 'месеца', 'подпечатан', 'заместник',
  'прилагат', 'основа', 'съответния', 'разрешение', 'документи', 'срока', 'предоставяне', 'контрол', 'следва',
  'основание', 'условия', 'определя', 'система', 'председател', 'кодекс', 'буква', 'връзка', 'заличават', 'отменя',
  'цел', 'става', 'влизането', 'алинея', 'договора', 'решението', 'създават', 'сума', 'електронен', 'разходите',
  'собственост', 'дружество', 'приема', 'електрическа', 'декември', 'вестник', 'предоставя', 'средство', 'помощ',
  'издаване', 'надзор', 'смисъла', 'реконструкция', 'глоба', 'страната', 'финансови', 'сметка', 'трансфери',
  'отношение', 'държавата', 'санкция', 'параграф', 'отбраната', 'информацията', 'банка', 'българската', 'сигурност',
  'областта', 'прилагане', 'ремонт', 'приходи', 'държавна', 'приложение', 'образованието', 'агенцията',
  'предприятия', 'председателя', 'случай', 'среда', 'инвестиционни', 'договори', 'регистрация', 'парламент',
  'науката', 'прилагането', 'поставя', 'точка', 'достъп', 'задълженията', 'бюджета', 'определят', 'избирателна',
  'план', 'средствата', 'членове', 'страна', 'работи', 'определен', 'извършват', 'запетая', 'оценка', 'организации',
  'наредбата', 'политика', 'изключение', 'искане',
];

/** Two-letter tokens frequent in the corpus (abbreviations and numbers): each indexed, each matching many articles. */
const TWO_LETTER_TOKENS = ['чл', 'ал', 'бр', 'лв', 'ес', 'дв', 'ео', 'ул', '10', '12', '24', '14', '15', '11', '13', '30'];

/** The spec's longest query, in characters (spec: POST /v1/search, `query`: 3 to 2000 characters). */
export const MAX_QUERY_CHARS = 2000;

/** `words` repeated, separated by spaces, as long as possible without passing `max` characters. */
function fill(words, max = MAX_QUERY_CHARS) {
  let text = '';
  for (let i = 0; ; i++) {
    const next = text === '' ? words[i % words.length] : `${text} ${words[i % words.length]}`;
    if (next.length > max) return text;
    text = next;
  }
}

/**
 * Queries built to be expensive, each valid under the spec (3 to 2000 characters), by name. Timed alone, each must
 * stay under the search's per-query goal (150 ms).
 * @param stopwords the analyzer's stopword list (`@orama/stopwords/bulgarian`).
 */
export function adversarialQueries(stopwords) {
  return [
    { name: '2,000 characters of common words repeated', query: fill(COMMON_WORDS.slice(0, 20)) },
    { name: '200 distinct common words', query: COMMON_WORDS.join(' ') },
    { name: '2,000 characters of 2-letter tokens', query: fill(TWO_LETTER_TOKENS) },
    { name: '2,000 digits in one token', query: '1234567890'.repeat(MAX_QUERY_CHARS / 10) },
    { name: '2,000 characters of distinct numbers', query: fill(Array.from({ length: 1000 }, (_, i) => String(i + 1))) },
    { name: 'one very common word („закон“)', query: 'закон' },
    { name: 'every stopword and one word', query: `${fill(stopwords, MAX_QUERY_CHARS - 6)} закон` },
    { name: '2,000 characters of realistic queries', query: fill(QUERIES.join(' ').split(' ')) },
  ];
}
