// v1 -> v2: labels and models move from a crawl to a topic. Every v1 crawl gets a topic of its own (named
// after the crawl, with its keywords), so nothing it learned changes meaning: its labels and its model
// become that topic's.
import type { Transaction } from 'dexie';

interface V1Crawl {
  id: number;
  name: string;
  config: { topic?: { keywords?: string[] } };
  createdAt: number;
  topicId?: number;
}

interface V1Model {
  crawlId: number;
  link: unknown;
  judge: unknown;
  lastLabelId: number;
  updatedAt: number;
}

export async function upgradeToTopics(tx: Transaction): Promise<void> {
  const crawls = (await tx.table('crawls').toArray()) as V1Crawl[];
  const topicOf = new Map<number, number>();
  for (const crawl of crawls) {
    const topicId = (await tx.table('topics').add({
      name: crawl.name,
      keywords: crawl.config.topic?.keywords ?? [],
      revision: 0,
      createdAt: crawl.createdAt,
      updatedAt: crawl.createdAt,
    })) as number;
    topicOf.set(crawl.id, topicId);
    await tx.table('crawls').update(crawl.id, { topicId, config: { ...crawl.config, topic: { ...crawl.config.topic, id: topicId } } });
  }
  await tx.table('labels').toCollection().modify((label: { crawlId: number; topicId?: number }) => {
    const topicId = topicOf.get(label.crawlId);
    if (topicId !== undefined) label.topicId = topicId;
  });
  // v1 deleted a crawl's labels with it, so none should be left without a topic; any that are cannot be placed.
  await tx.table('labels').filter((l: { topicId?: number }) => l.topicId === undefined).delete();
  const models = (await tx.table('models').toArray()) as V1Model[];
  for (const m of models) {
    const topicId = topicOf.get(m.crawlId);
    if (topicId === undefined) continue;
    await tx.table('topicModels').put({ topicId, link: m.link, judge: m.judge, lastLabelId: m.lastLabelId, revision: 0, updatedAt: m.updatedAt });
  }
}
