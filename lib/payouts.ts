// Payout planning (pure): per creator, the payable commissions and approved bonus awards are paid in full (gross)
// and the creator's outstanding clawbacks are netted from that gross, oldest first, never below zero; what cannot be
// netted now waits for the next payout. The platform fee of each commission leaves the wallet with it (it was
// reserved beside it); awards carry no fee.

export interface PayableCommission {
  id: string;
  creatorId: string;
  commissionMicros: number;
  platformFeeMicros: number;
}
export interface OutstandingClawback {
  id: string;
  creatorId: string;
  amountMicros: number;
  recoveredMicros: number;
}
export interface ClawbackRecovery {
  clawbackId: string;
  micros: number;
}
export interface PayableBonus {
  id: string;
  creatorId: string;
  amountMicros: number;
}

export interface CreatorPayoutPlan {
  creatorId: string;
  commissionIds: string[];
  awardIds: string[];
  /** The awards' part of the gross. */
  awardsMicros: number;
  grossMicros: number;
  feesMicros: number;
  clawbacksNettedMicros: number;
  netMicros: number;
  recoveries: ClawbackRecovery[];
}

/** One plan per creator with payable commissions or awards, in creator id order; clawbacks given oldest first. */
export function planPayouts(
  commissions: readonly PayableCommission[],
  clawbacks: readonly OutstandingClawback[],
  awards: readonly PayableBonus[] = [],
): CreatorPayoutPlan[] {
  const byCreator = new Map<string, { paid: PayableCommission[]; bonuses: PayableBonus[] }>();
  const of = (creatorId: string) => byCreator.get(creatorId) ?? byCreator.set(creatorId, { paid: [], bonuses: [] }).get(creatorId)!;
  for (const c of commissions) of(c.creatorId).paid.push(c);
  for (const a of awards) of(a.creatorId).bonuses.push(a);
  return [...byCreator.keys()].sort().map((creatorId) => {
    const { paid, bonuses } = byCreator.get(creatorId)!;
    const awardsMicros = bonuses.reduce((sum, a) => sum + a.amountMicros, 0);
    const grossMicros = paid.reduce((sum, c) => sum + c.commissionMicros, awardsMicros);
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
    return {
      creatorId,
      commissionIds: paid.map((c) => c.id),
      awardIds: bonuses.map((a) => a.id),
      awardsMicros,
      grossMicros,
      feesMicros,
      clawbacksNettedMicros,
      netMicros: room,
      recoveries,
    };
  });
}

/** A run id names one payout run (its idempotency key): letters, digits and `_.:-`, up to 100 characters. */
export const RUN_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,100}$/;

/** A fresh run id: when it was started (UTC) and 48 random bits, so concurrent runs never share one by accident. */
export function newRunId(now: Date, random: string): string {
  return `run_${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}_${random}`;
}
