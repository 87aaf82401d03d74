/**
 * Word lists and a deterministic text generator for the newsroom seed (bench/seed/newsroom.ts).
 *
 * Each language has news words (most frequent first), function words, and a long tail of generated words
 * so that the vocabulary has the shape of real text: word frequencies follow Zipf's law (rank r is drawn
 * with probability ~ 1/r), so the top words occur in nearly every story, words around rank 100 in about a
 * quarter of them and tail words in a handful. Search on common words therefore has thousands of matches
 * to rank, as on a real newsroom. The generator builds pools of titles, sentences and paragraphs; the seed
 * assembles every story from them in SQL.
 *
 * zh-Hans text is written as Chinese is, without spaces between words: PostgreSQL's parser reads each sentence
 * as one token, and search finds its words through the bigram vector (docs/newsroom-reads.md, "Chinese and
 * Japanese"), which the search scenario measures with Chinese queries.
 */

export const SEED_LANGS = ['en', 'es', 'fr', 'de', 'zh-Hans'] as const;
export type SeedLang = (typeof SEED_LANGS)[number];

interface LanguageWords {
  /** Content words, most frequent first. */
  news: string[];
  /** Short grammatical words interleaved between content words. */
  function: string[];
  /** Syllables of the generated tail words. */
  syllables: string[];
  /** Joins words of a sentence. */
  space: string;
  /** Ends a sentence. */
  stop: string;
}

const words = (text: string) => text.trim().split(/\s+/);

export const LANGUAGE_WORDS: Record<SeedLang, LanguageWords> = {
  en: {
    news: words(`
      government people year report city minister police president election market country week health court
      climate energy school state public price water company workers policy bank inflation council budget law
      vote party officials data study hospital security trade border funding housing tax war peace talks
      parliament union strike research university rain storm flood fire drought harvest farmers crops prices
      growth economy jobs unemployment wages pension reform vaccine virus doctors patients nurses transport rail
      airport flights port shipping oil gas electricity solar wind nuclear emissions carbon forest river coast
      village region province capital mayor governor senator judge trial verdict appeal investigation fraud
      corruption scandal protest rally campaign candidate poll results coalition opposition cabinet treaty
      summit agreement sanctions exports imports tariffs currency debt deficit interest rates investors shares
      stocks profits losses factory industry technology software internet privacy platform satellite launch
      museum festival film music artist book library football team match championship coach players olympic
      earthquake volcano hurricane wildfire heatwave snow traffic accident bridge road construction
    `),
    function: words('the of and to in a for on with that is was by at from as it its has have will said are this be after new more'),
    syllables: words('ar bel cor dan el fen gar hol in jor kel lan mor nel or pan quil ren sol tar ul ven wes yor zen'),
    space: ' ',
    stop: '.',
  },
  es: {
    news: words(`
      gobierno personas año informe ciudad ministro policía presidente elecciones mercado país semana salud
      tribunal clima energía escuela estado público precio agua empresa trabajadores política banco inflación
      consejo presupuesto ley voto partido funcionarios datos estudio hospital seguridad comercio frontera
      vivienda impuestos guerra paz negociaciones parlamento sindicato huelga investigación universidad lluvia
      tormenta inundación incendio sequía cosecha agricultores cultivos crecimiento economía empleo desempleo
      salarios pensiones reforma vacuna virus médicos pacientes transporte tren aeropuerto vuelos puerto
      petróleo electricidad solar eólica nuclear emisiones carbono bosque río costa pueblo región provincia
      capital alcalde gobernador senador juez juicio sentencia apelación fraude corrupción escándalo protesta
      campaña candidato encuesta resultados coalición oposición gabinete tratado cumbre acuerdo sanciones
      exportaciones importaciones aranceles moneda deuda déficit tipos inversores acciones beneficios fábrica
      industria tecnología internet privacidad plataforma satélite museo festival película música artista
      libro biblioteca fútbol equipo partido campeonato entrenador jugadores terremoto volcán huracán
    `),
    function: words('el la de y en a los las un una por con para que es fue del al se su según más tras'),
    syllables: words('ba ca da es fa ga ja la ma na pa ra sa ta va za ción ero ita ado ena ol ur ia'),
    space: ' ',
    stop: '.',
  },
  fr: {
    news: words(`
      gouvernement personnes année rapport ville ministre police président élections marché pays semaine santé
      tribunal climat énergie école état public prix eau entreprise travailleurs politique banque inflation
      conseil budget loi vote parti responsables données étude hôpital sécurité commerce frontière logement
      impôts guerre paix négociations parlement syndicat grève recherche université pluie tempête inondation
      incendie sécheresse récolte agriculteurs cultures croissance économie emploi chômage salaires retraites
      réforme vaccin virus médecins patients transports train aéroport vols port pétrole électricité solaire
      éolien nucléaire émissions carbone forêt fleuve côte village région province capitale maire préfet
      sénateur juge procès verdict appel enquête fraude corruption scandale manifestation campagne candidat
      sondage résultats coalition opposition cabinet traité sommet accord sanctions exportations importations
      droits monnaie dette déficit taux investisseurs actions bénéfices usine industrie technologie internet
      données plateforme satellite musée festival film musique artiste livre bibliothèque football équipe
      championnat entraîneur joueurs séisme volcan ouragan canicule neige circulation accident pont route
    `),
    function: words('le la les de des du et en un une pour sur avec que qui est a été par dans au aux selon après'),
    syllables: words('ba che de fa ge jo la me ni po que re sa te va eau ion eur ette ier ais ou ille ain'),
    space: ' ',
    stop: '.',
  },
  de: {
    news: words(`
      regierung menschen jahr bericht stadt minister polizei präsident wahl markt land woche gesundheit gericht
      klima energie schule staat öffentlichkeit preis wasser unternehmen arbeiter politik bank inflation rat
      haushalt gesetz abstimmung partei beamte daten studie krankenhaus sicherheit handel grenze wohnungen
      steuern krieg frieden verhandlungen parlament gewerkschaft streik forschung universität regen sturm
      hochwasser brand dürre ernte landwirte wachstum wirtschaft arbeitsplätze arbeitslosigkeit löhne rente
      reform impfstoff virus ärzte patienten verkehr bahn flughafen flüge hafen öl gas strom solar windkraft
      atomkraft emissionen kohlendioxid wald fluss küste dorf region provinz hauptstadt bürgermeister
      gouverneur senator richter prozess urteil berufung ermittlungen betrug korruption skandal protest
      kundgebung wahlkampf kandidat umfrage ergebnisse koalition opposition kabinett vertrag gipfel abkommen
      sanktionen exporte importe zölle währung schulden defizit zinsen investoren aktien gewinne fabrik
      industrie technologie internet datenschutz plattform satellit museum festival film musik künstler buch
      bibliothek fußball mannschaft meisterschaft trainer spieler erdbeben vulkan hitzewelle schnee unfall
    `),
    function: words('der die das und in zu den von mit für auf ist im dem nicht ein eine als auch es an wurde nach'),
    syllables: words('ber dorf ein fen gar hal kem lin mer nau ost pre rin sch ten uhr vor wal zei ung keit lich heit'),
    space: ' ',
    stop: '.',
  },
  'zh-Hans': {
    news: words(`
      政府 人们 今年 报告 城市 部长 警方 总统 选举 市场 国家 本周 健康 法院 气候 能源 学校 公共 价格 水 公司
      工人 政策 银行 通胀 议会 预算 法律 投票 政党 官员 数据 研究 医院 安全 贸易 边境 住房 税收 战争 和平
      谈判 工会 罢工 大学 暴雨 风暴 洪水 火灾 干旱 收成 农民 增长 经济 就业 失业 工资 养老金 改革 疫苗 病毒
      医生 患者 交通 铁路 机场 航班 港口 石油 电力 太阳能 风能 核能 排放 森林 河流 海岸 村庄 地区 省 首都
      市长 法官 审判 判决 上诉 调查 欺诈 腐败 丑闻 抗议 竞选 候选人 民调 结果 联盟 反对派 内阁 条约 峰会
      协议 制裁 出口 进口 关税 货币 债务 赤字 利率 投资者 股票 利润 工厂 工业 科技 互联网 隐私 平台 卫星
    `),
    function: words('的 了 在 是 和 与 对 将 已 也 为 据 中 后'),
    syllables: words('安 北 晨 东 丰 光 海 华 金 林 明 南 平 青 荣 山 泰 天 文 新 阳 永 云 中'),
    space: '',
    stop: '。',
  },
};

/** How many words each language has: its news words first, then generated tail words up to this count. */
export const VOCABULARY_SIZE = 4000;

/** xorshift32: a small deterministic PRNG, so every seed of a version builds the same text. */
export function prng(seed: number): () => number {
  let state = seed >>> 0 || 0x9e3779b9;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

/** The ranked vocabulary of a language: news words, then generated words (unique, 2 to 4 syllables). */
export function vocabulary(lang: SeedLang): string[] {
  const spec = LANGUAGE_WORDS[lang];
  const out = [...new Set(spec.news)];
  const seen = new Set([...out, ...spec.function]);
  const random = prng(0xc0ffee + lang.length * 7919 + lang.charCodeAt(0));
  while (out.length < VOCABULARY_SIZE) {
    const n = 2 + Math.floor(random() * 3);
    let word = '';
    for (let i = 0; i < n; i++) word += spec.syllables[Math.floor(random() * spec.syllables.length)]!;
    if (!seen.has(word)) {
      seen.add(word);
      out.push(word);
    }
  }
  return out;
}

/** Draws ranks 0..n-1 with probability ~ 1/(rank+1)^s (inverse CDF over precomputed cumulative weights). */
function zipf(n: number, s: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += 1 / Math.pow(i + 1, s);
    cumulative[i] = total;
  }
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface TextPools {
  titles: string[];
  sentences: string[];
  paragraphs: string[];
}

/**
 * Pools of text for one language: `titles` (6-12 words, no final stop), `sentences` (10-22 words, used for
 * summaries and claims) and `paragraphs` (3-6 sentences, bodies are 4-9 of them).
 */
export function textPools(lang: SeedLang, sizes: { titles: number; sentences: number; paragraphs: number }): TextPools {
  const spec = LANGUAGE_WORDS[lang];
  const vocab = vocabulary(lang);
  const random = prng(0xbe4c + lang.charCodeAt(0) * 131 + lang.length);
  const rank = zipf(vocab.length, 1.0, random);
  const capitalize = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

  const phrase = (min: number, max: number, functionShare: number) => {
    const n = min + Math.floor(random() * (max - min + 1));
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      out.push(i > 0 && random() < functionShare ? spec.function[Math.floor(random() * spec.function.length)]! : vocab[rank()]!);
    }
    out[0] = capitalize(out[0]!);
    return out.join(spec.space);
  };
  const sentence = () => phrase(10, 22, 0.35) + spec.stop;

  const titles = Array.from({ length: sizes.titles }, () => phrase(6, 12, 0.2));
  const sentences = Array.from({ length: sizes.sentences }, sentence);
  const paragraphs = Array.from({ length: sizes.paragraphs }, () => {
    const n = 3 + Math.floor(random() * 4);
    return Array.from({ length: n }, sentence).join(spec.space);
  });
  return { titles, sentences, paragraphs };
}
