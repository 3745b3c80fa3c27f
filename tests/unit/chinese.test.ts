// Chinese end to end: a GBK page and a UTF-8 page are decoded, parsed and segmented into
// words, and a link classifier trained on Chinese labeled links (finance against sports and entertainment,
// the paper's finance domain, design A) ranks unseen Chinese links on the right side.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluateHoldout, type LabeledLinkText } from '../../lib/learning/evaluate';
import { rocAuc } from '../../lib/learning/evaluation-metrics';
import { LinkClassifier } from '../../lib/learning/link-classifier';
import { decodeHtml } from '../../lib/net/decode';
import { parseHtml } from '../../lib/parse/html';
import { tokenize } from '../../lib/parse/tokenize';

const fixtureBytes = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));

const KEYWORDS = ['金融', '股票', '基金', '银行'];

/** Finance links (label 1) and sports or entertainment links (label 0), as a portal's pages show them. */
const TRAINING: LabeledLinkText[] = [
  { anchor: '央行宣布下调存款准备金率', context: '中国人民银行 货币政策 释放长期资金', label: 1 },
  { anchor: '沪深两市成交额突破万亿', context: '股市行情 上证指数 收盘上涨', label: 1 },
  { anchor: '人民币汇率中间价上调', context: '外汇市场 美元 汇率波动', label: 1 },
  { anchor: '公募基金发行规模创新高', context: '基金公司 新产品 理财 投资者', label: 1 },
  { anchor: '银行理财产品收益率下降', context: '银行 理财 存款利率 储蓄', label: 1 },
  { anchor: '上市公司三季度财报解读', context: '营业收入 净利润 同比增长 股票', label: 1 },
  { anchor: '债券市场收益率走低', context: '国债 利率 债券投资 机构', label: 1 },
  { anchor: '证监会发布新股发行新规', context: '证券 监管 上市融资 股市', label: 1 },
  { anchor: '黄金价格创历史新高', context: '贵金属 期货 投资 避险', label: 1 },
  { anchor: '保险资金加大权益投资', context: '保险 资产配置 股票 基金', label: 1 },
  { anchor: '房贷利率再次下调', context: '银行 贷款利率 购房 金融', label: 1 },
  { anchor: '外资持续流入A股', context: '北向资金 股市 净买入 券商', label: 1 },
  { anchor: '国足世预赛名单公布', context: '足球 国家队 主教练 比赛 球员', label: 0 },
  { anchor: '湖人主场击败勇士', context: '篮球 比赛 得分 季后赛', label: 0 },
  { anchor: '奥运会乒乓球决赛', context: '乒乓球 冠军 金牌 运动员', label: 0 },
  { anchor: '新电影票房突破十亿', context: '电影 票房 导演 上映 观众', label: 0 },
  { anchor: '歌手演唱会门票售罄', context: '演唱会 歌手 粉丝 音乐', label: 0 },
  { anchor: '热门综艺节目收视率', context: '综艺节目 明星 嘉宾 收视', label: 0 },
  { anchor: '电视剧大结局引热议', context: '电视剧 演员 剧情 观众', label: 0 },
  { anchor: '马拉松比赛报名开启', context: '跑步 马拉松 赛事 选手', label: 0 },
  { anchor: '明星婚礼现场曝光', context: '娱乐 明星 八卦 婚礼', label: 0 },
  { anchor: '世界杯小组赛赛程', context: '足球 世界杯 比赛 球队', label: 0 },
  { anchor: '网球公开赛女单夺冠', context: '网球 冠军 决赛 球员', label: 0 },
  { anchor: '动画电影定档暑期', context: '动画 电影 上映 票房', label: 0 },
];

/** Links none of whose anchors occur in TRAINING. */
const UNSEEN: LabeledLinkText[] = [
  { anchor: '股票基金净值下跌', context: '基金 股票 投资者 赎回', label: 1 },
  { anchor: '商业银行下调存款利率', context: '银行 存款 利率 理财', label: 1 },
  { anchor: '外汇储备规模上升', context: '外汇 美元 央行 储备', label: 1 },
  { anchor: '券商板块领涨', context: '证券 股市 成交 上涨', label: 1 },
  { anchor: '企业债券违约风险', context: '债券 信用 融资 机构', label: 1 },
  { anchor: '理财产品收益排行', context: '理财 收益 银行 投资', label: 1 },
  { anchor: '足球联赛第十轮战报', context: '足球 联赛 比赛 进球', label: 0 },
  { anchor: '篮球明星转会传闻', context: '篮球 球员 转会 球队', label: 0 },
  { anchor: '电影节红毯星光熠熠', context: '电影 明星 红毯 导演', label: 0 },
  { anchor: '羽毛球决赛直播', context: '比赛 冠军 决赛 直播', label: 0 },
  { anchor: '偶像歌手发布新专辑', context: '音乐 歌手 专辑 粉丝', label: 0 },
  { anchor: '游泳运动员打破纪录', context: '游泳 纪录 运动员 金牌', label: 0 },
];

function trained(group: 1 | 2 = 2): LinkClassifier {
  const c = new LinkClassifier(KEYWORDS, { group });
  for (const l of TRAINING) c.learn(l, l.label);
  return c;
}

describe('Chinese pages are segmented into words', () => {
  it('decodes the GBK fixture through the fetcher and splits its title, text and anchors into words', () => {
    const { text, charset } = decodeHtml(fixtureBytes('gbk-page.html'), 'text/html');
    expect(charset).toBe('gb18030');
    const page = parseHtml(text, 'http://gbk.example.cn/');
    expect(tokenize(page.title)).toEqual(['金融', '新闻', '财经', '首页']);
    const words = tokenize(page.text);
    expect(words).toEqual(expect.arrayContaining(['央行', '宣布', '存款', '中国', '人民', '银行', '股票', '债券', '信贷', '投资']));
    // Runs of ideographs are split, not kept whole: no token spans two of these words.
    expect(words).not.toContain('存款准备金率');
    expect(words.every((w) => w.length <= 4)).toBe(true);
    // 的 (a particle on the stop list) is in the text, but not among the words.
    expect(page.text).toContain('的');
    expect(words).not.toContain('的');
    const inText = page.links.find((l) => l.anchor === '详细报道')!;
    expect(tokenize(inText.anchor)).toEqual(['详细', '报道']);
    expect(tokenize(inText.context)).toEqual(expect.arrayContaining(['金融', '机构', '存款', '股票', '市场']));
  });

  it('splits the UTF-8 fixture the same way', () => {
    const { text, charset } = decodeHtml(fixtureBytes('chinese-utf8.html'), 'text/html; charset=utf-8');
    expect(charset).toBe('utf-8');
    const page = parseHtml(text, 'https://caijing.example.cn/');
    expect(tokenize(page.title)).toEqual(['财经', '频道', '股市行情', '理财', '资讯']);
    expect(tokenize(page.text)).toEqual(expect.arrayContaining(['指数', '收盘', '上涨', '资金', '基金', '公司', '风险', '投资']));
    expect(page.links.map((l) => tokenize(l.anchor))).toEqual(
      expect.arrayContaining([['关于', '我们'], ['联系', '方式'], ['合作', '伙伴']]),
    );
  });
});

describe('a link classifier trained on Chinese labeled links', () => {
  it('scores every unseen finance link above every unseen sports or entertainment link', () => {
    const c = trained();
    const scored = UNSEEN.map((l) => ({ ...l, score: c.score(l), rank: c.rank(l).logOdds }));
    const lowestFinance = Math.min(...scored.filter((s) => s.label === 1).map((s) => s.score));
    const highestOther = Math.max(...scored.filter((s) => s.label === 0).map((s) => s.score));
    expect(lowestFinance).toBeGreaterThan(0.5);
    expect(highestOther).toBeLessThan(0.5);
    expect(rocAuc(scored)).toBe(1);
  });

  it('learns from the words inside an unsegmented anchor, not the anchor string as a whole', () => {
    // No anchor of UNSEEN occurs in TRAINING; only shared words can place them. Group 1 (anchor words only)
    // must still place anchors that share a word such as 基金, 银行 or 电影 with training anchors.
    const c = trained(1);
    expect(c.score({ anchor: '基金经理访谈', context: '' })).toBeGreaterThan(0.5);
    expect(c.score({ anchor: '电影幕后花絮', context: '' })).toBeLessThan(0.5);
  });

  it('ranks the finance links of the two fixture pages above their site links', () => {
    const c = trained();
    const page = parseHtml(decodeHtml(fixtureBytes('chinese-utf8.html'), null).text, 'https://caijing.example.cn/');
    const score = (anchor: string) => c.score(page.links.find((l) => l.anchor === anchor)!);
    const finance = ['股票', '基金', '外汇', '银行', '机构研报解读'].map(score);
    const site = ['关于我们', '联系方式', '合作伙伴'].map(score);
    expect(Math.min(...finance)).toBeGreaterThan(Math.max(...site));

    const gbk = parseHtml(decodeHtml(fixtureBytes('gbk-page.html'), null).text, 'http://gbk.example.cn/');
    for (const l of gbk.links.filter((l) => l.anchor !== '首页')) expect(c.score(l)).toBeGreaterThan(0.5);
  });

  it('has full precision and recall on a held-out 30% under both feature groups of design A.3', async () => {
    const report = await evaluateHoldout([...TRAINING, ...UNSEEN], { keywords: KEYWORDS, seed: 1 });
    if (!report.ok) throw new Error(report.problem);
    expect(report.test).toEqual({ pos: 5, neg: 5 });
    expect(report.groups[2]).toMatchObject({ precision: 1, recall: 1, auc: 1 });
    expect(report.groups[1].auc).toBeGreaterThan(0.8);
  });
});
