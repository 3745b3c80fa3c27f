// The models of a k-fold cross-validation and a hold-out split without learning any label twice (design A.8).
import { LinkClassifier, type Evidence, type LinkClassifierJSON, type LinkText } from './link-classifier';
import type { FeatureGroup } from './link-features';
import type { Label } from './naive-bayes';
import type { TimeSlicer } from './time-slicer';

/** What the models are built with: the classifier's keywords and its smoothing. */
export interface ClassifierOptions {
  keywords: readonly string[];
  alpha?: number;
  evidence?: Evidence;
}

/**
 * Models of unions of cells without learning any label twice: every label is learned once, into the model
 * of its own cell; the model of "every cell but those left out" is then assembled from the counts, the total
 * minus the left-out cells. Naive Bayes counts are additive, so this is exactly the model that learning
 * those labels gives (a unit test holds it to that); the alternative, k-fold by retraining, learns every label
 * k - 1 times. The keyword pseudo-examples every new LinkClassifier learns (see its constructor) are counted
 * once, not once per cell. Counts are kept in arrays indexed by feature, so assembling a model of a
 * 100,000-feature vocabulary is a few array sums.
 */
export class CellModels {
  private constructor(
    private readonly template: LinkClassifierJSON,
    private readonly features: string[],
    /** Per cell: examples of each class, and per feature the count of each class (pseudo-examples excluded). */
    private readonly cells: CellCounts[],
    /** Every cell plus the pseudo-examples: the model of all labels. */
    private readonly total: CellCounts,
  ) {}

  static async learn(
    examples: readonly (LinkText & { label: Label })[],
    cellOf: readonly number[],
    nCells: number,
    opts: ClassifierOptions,
    group: FeatureGroup,
    slicer: TimeSlicer,
  ): Promise<CellModels> {
    const classifiers = Array.from({ length: nCells }, () => newClassifier(opts, group));
    await slicer.each(examples, (e, i) => classifiers[cellOf[i]!]!.learn(e, e.label));
    const template = newClassifier(opts, group).toJSON();
    // Feature ids: the pseudo-examples' features first, so they are ids 0..nSeed-1.
    const idOf = new Map<string, number>();
    const features: string[] = [];
    const cellModels: LinkClassifierJSON['model'][] = [];
    for (const [f] of template.model.features) (idOf.set(f, features.length), features.push(f));
    for (const c of classifiers) {
      await slicer.after(() => {
        const model = c.toJSON().model;
        for (const [f] of model.features) if (!idOf.has(f)) (idOf.set(f, features.length), features.push(f));
        cellModels.push(model);
      });
    }
    const nSeed = template.model.features.length;
    const counts = (model: LinkClassifierJSON['model']): CellCounts => {
      const featurePos = new Int32Array(features.length);
      const featureNeg = new Int32Array(features.length);
      for (const [f, p, n] of model.features) (featurePos[idOf.get(f)!] = p, featureNeg[idOf.get(f)!] = n);
      return { pos: model.pos, neg: model.neg, featurePos, featureNeg };
    };
    const seed = counts(template.model);
    const total = counts(template.model);
    const cells: CellCounts[] = [];
    for (const model of cellModels) {
      const cell = await slicer.after(() => counts(model));
      // Each cell's classifier learned the pseudo-examples too: take them out, then add the cell to the total.
      cell.pos -= seed.pos;
      cell.neg -= seed.neg;
      for (let id = 0; id < nSeed; id++) (cell.featurePos[id]! -= seed.featurePos[id]!, cell.featureNeg[id]! -= seed.featureNeg[id]!);
      total.pos += cell.pos;
      total.neg += cell.neg;
      addInto(total, cell, 1);
      cells.push(cell);
    }
    return new CellModels(template, features, cells, total);
  }

  /** The model trained on the labels of every cell for which `leftOut` is false. */
  model(leftOut: (cell: number) => boolean): LinkClassifier {
    const out = this.cells.filter((_, cell) => leftOut(cell));
    const kept: CellCounts = { ...this.total, featurePos: this.total.featurePos.slice(), featureNeg: this.total.featureNeg.slice() };
    for (const o of out) {
      kept.pos -= o.pos;
      kept.neg -= o.neg;
      addInto(kept, o, -1);
    }
    const { pos, neg, featurePos, featureNeg } = kept;
    const rows: [string, number, number][] = [];
    for (let id = 0; id < featurePos.length; id++) {
      if (featurePos[id]! + featureNeg[id]! > 0) rows.push([this.features[id]!, featurePos[id]!, featureNeg[id]!]);
    }
    return LinkClassifier.fromJSON({ ...this.template, model: { ...this.template.model, pos, neg, features: rows } });
  }
}

/** Class totals and per-feature counts of each class, indexed by feature id: a Naive Bayes model's sufficient statistics. */
interface CellCounts {
  pos: number;
  neg: number;
  featurePos: Int32Array;
  featureNeg: Int32Array;
}

function addInto(into: CellCounts, from: CellCounts, sign: 1 | -1): void {
  for (let id = 0; id < into.featurePos.length; id++) {
    into.featurePos[id]! += sign * from.featurePos[id]!;
    into.featureNeg[id]! += sign * from.featureNeg[id]!;
  }
}

function newClassifier(opts: ClassifierOptions, group: FeatureGroup): LinkClassifier {
  return new LinkClassifier(opts.keywords, { group, alpha: opts.alpha, evidence: opts.evidence });
}
