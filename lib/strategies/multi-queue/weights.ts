// Design D.3: which FIFO queue gives the next URL. Queue i (priority value v_i) weighs
//   w_i = len_i / iFactor^(max - v_i) / (1 + fetches in flight from it),
// and the heaviest goes first: high priorities are favoured by iFactor's powers, yet a low queue that keeps
// growing outweighs them in the end, so none starves. Dividing by the fetches in flight (the design's option) lets
// several workers spread over the queues instead of all serving the heaviest.
import type { QueueLoad } from '../types';

export interface WeighedQueue extends QueueLoad {
  weight: number;
}

export function queueWeight(q: QueueLoad, maxPriority: number, iFactor: number): number {
  return q.queued / iFactor ** (maxPriority - q.priority) / (1 + q.inFlight);
}

/** The queues heaviest first; equal weights go to the higher priority. */
export function rankQueues(queues: readonly QueueLoad[], maxPriority: number, iFactor: number): WeighedQueue[] {
  return queues
    .map((q) => ({ ...q, weight: queueWeight(q, maxPriority, iFactor) }))
    .sort((a, b) => b.weight - a.weight || b.priority - a.priority);
}
