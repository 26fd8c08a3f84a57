// Payout planning (pure): per creator, the payable commissions are paid in full (gross) and the creator's outstanding
// clawbacks are netted from that gross, oldest first, never below zero; what cannot be netted now waits for the
// next payout. The platform fee of each commission leaves the wallet with it (it was reserved beside it).

export interface PayableCommission { id: string; creatorId: string; commissionMicros: number; platformFeeMicros: number }
export interface OutstandingClawback { id: string; creatorId: string; amountMicros: number; recoveredMicros: number }
export interface ClawbackRecovery { clawbackId: string; micros: number }

export interface CreatorPayoutPlan {
  creatorId: string;
  commissionIds: string[];
  grossMicros: number;
  feesMicros: number;
  clawbacksNettedMicros: number;
  netMicros: number;
  recoveries: ClawbackRecovery[];
}

/** One plan per creator with payable commissions, in creator id order; clawbacks given oldest first. */
export function planPayouts(commissions: readonly PayableCommission[], clawbacks: readonly OutstandingClawback[]): CreatorPayoutPlan[] {
  const byCreator = new Map<string, PayableCommission[]>();
  for (const c of commissions) byCreator.set(c.creatorId, [...(byCreator.get(c.creatorId) ?? []), c]);
  return [...byCreator.keys()].sort().map((creatorId) => {
    const paid = byCreator.get(creatorId)!;
    const grossMicros = paid.reduce((sum, c) => sum + c.commissionMicros, 0);
    const feesMicros = paid.reduce((sum, c) => sum + c.platformFeeMicros, 0);
    let room = grossMicros;
    const recoveries: ClawbackRecovery[] = [];
    for (const cb of clawbacks) {
      if (cb.creatorId !== creatorId || room === 0) continue;
      const micros = Math.min(cb.amountMicros - cb.recoveredMicros, room);
      if (micros <= 0) continue;
      recoveries.push({ clawbackId: cb.id, micros });
      room -= micros;
    }
    const clawbacksNettedMicros = grossMicros - room;
    return { creatorId, commissionIds: paid.map((c) => c.id), grossMicros, feesMicros, clawbacksNettedMicros, netMicros: room, recoveries };
  });
}

/** A run id names one payout run (its idempotency key): letters, digits and `_.:-`, up to 100 characters. */
export const RUN_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,100}$/;

/** A fresh run id: when it was started (UTC) and 48 random bits, so concurrent runs never share one by accident. */
export function newRunId(now: Date, random: string): string {
  return `run_${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}_${random}`;
}
