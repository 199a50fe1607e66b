package model

import (
	"fmt"
	"math"
)

// Interruptions: checkpoint intervals, their overhead, spot interruption
// rates and HPC wall-time chunks. All times are in hours unless a name says
// otherwise. Every function panics on misuse (a negative, NaN or infinite
// input, or one outside the range its comment states) with a "model: "
// message; callers validate user input first.

// YoungInterval is Young's optimal checkpoint interval √(2δM), with δ the
// time to write one checkpoint and M the mean time between failures
// (J. W. Young, "A first order approximation to the optimum checkpoint
// interval", CACM 17(9), 1974; as in LLNL/scr scripts/python/scr_ckpt_interval.py,
// model "young"). δ = 0 (free checkpoints) gives 0. It panics unless
// δ ≥ 0 and M > 0, both finite.
func YoungInterval(delta, mtbf float64) float64 {
	checkNonNeg("YoungInterval", "delta", delta)
	checkPos("YoungInterval", "mtbf", mtbf)
	return math.Sqrt(2 * delta * mtbf)
}

// DalyInterval is Daly's higher-order optimum checkpoint interval
// (J. T. Daly, "A higher order estimate of the optimum checkpoint interval
// for restart dumps", Future Generation Computer Systems 22(3):303–312, 2006,
// eq. 37 as cited by LLNL/scr scripts/python/scr_ckpt_interval.py, whose
// model "daly" this follows):
//
//	τ = √(2δM)·[1 + ⅓·√(δ/(2M)) + (1/9)·(δ/(2M))] − δ   for δ < 2M
//	τ = M                                               for δ ≥ 2M
//
// Expanding, τ = √(2δM) − δ·(2/3 − (1/9)·√(δ/(2M))): always below Young's
// interval for δ < 2M, by about 2δ/3 when δ ≪ M. δ = 0 gives 0. It panics
// unless δ ≥ 0 and M > 0, both finite.
func DalyInterval(delta, mtbf float64) float64 {
	checkNonNeg("DalyInterval", "delta", delta)
	checkPos("DalyInterval", "mtbf", mtbf)
	if delta >= 2*mtbf {
		return mtbf
	}
	f := delta / (2 * mtbf)
	return math.Sqrt(2*delta*mtbf)*(1+math.Sqrt(f)/3+f/9) - delta
}

// CheckpointOverhead is the expected extra wall time, as a fraction of the
// useful compute time, of checkpointing every τ hours when each checkpoint
// takes δ, failures arrive at rate 1/M and each costs a restart of R:
//
//	overhead = δ/τ + (τ/2 + R)/M
//
// δ/τ is the time spent writing checkpoints per unit of work; on each
// failure half an interval of work is lost on average and R is spent
// restarting. This is the first-order model behind Young's interval
// (Young 1974: minimising δ/τ + τ/(2M) gives τ = √(2δM), where the overhead
// is √(2δ/M)); Daly 2006 begins from such a simplified first-order cost
// function (solve, dump, rework and restart time) before refining it for δ
// or R not small against M. Use it for δ, τ, R ≪ M; it can exceed 1 when
// they are not. δ = 0 means free checkpoints: the first term is 0 and τ may
// be 0. It panics unless δ ≥ 0, M > 0, R ≥ 0, τ ≥ 0 (τ > 0 when δ > 0), all
// finite.
func CheckpointOverhead(delta, mtbf, interval, restart float64) float64 {
	checkNonNeg("CheckpointOverhead", "delta", delta)
	checkPos("CheckpointOverhead", "mtbf", mtbf)
	checkNonNeg("CheckpointOverhead", "restart", restart)
	if delta > 0 {
		checkPos("CheckpointOverhead", "interval", interval)
	} else {
		checkNonNeg("CheckpointOverhead", "interval", interval)
	}
	write := 0.0
	if delta > 0 {
		write = delta / interval
	}
	return write + (interval/2+restart)/mtbf
}

// JobMTBI is the mean time between interruptions, in hours, of a job that
// stops whenever any one of `instances` independently interrupted instances
// is interrupted: the minimum of independent exponential lifetimes with rate
// r each is exponential with rate n·r, so M_job = 1 / (n·r). It panics
// unless the rate is a finite number > 0 and instances ≥ 1: capacity that
// is never interrupted has no MTBI, and callers skip the checkpoint model
// for it.
func JobMTBI(perInstanceRatePerHour float64, instances int) float64 {
	checkPos("JobMTBI", "perInstanceRatePerHour", perInstanceRatePerHour)
	if instances < 1 {
		panic(fmt.Sprintf("model: JobMTBI: instances %d out of range (allowed: ≥ 1)", instances))
	}
	return 1 / (float64(instances) * perInstanceRatePerHour)
}

// RateFromMonthlyFraction converts the share of instances interrupted in a
// month into a per-hour rate. The AWS Spot Advisor reports the "frequency of
// interruption" of an instance type as the share of instances reclaimed over
// the trailing month, in buckets (< 5 %, 5–10 %, 10–15 %, 15–20 %, > 20 %).
// Treating interruptions as a Poisson process with rate r per hour, the
// share interrupted within a month of 730 h (8,760 h ÷ 12) is
// f = 1 − exp(−730·r), so r = −ln(1 − f) / 730. For small f, r ≈ f/730.
// f = 0 gives 0. It panics unless 0 ≤ f < 1.
func RateFromMonthlyFraction(f float64) float64 {
	if !(f >= 0 && f < 1) {
		panic(fmt.Sprintf("model: RateFromMonthlyFraction: f %g out of range (allowed: 0 ≤ f < 1)", f))
	}
	return -math.Log1p(-f) / hoursPerMonth
}

// maxChunks bounds WallTimeChunks; more jobs than this is "cannot fit".
const maxChunks = 1 << 30

// WallTimeChunks is the number of jobs a run of computeHours needs under a
// wall-time limit of walltimeHours when each job also spends
// checkpointOverheadHours (writing its final checkpoint, restarting from
// the previous one): ⌈compute / (walltime − overhead)⌉, at least 1.
//
// It returns 0 when the overhead leaves no usable wall time (or the run
// would need more than 2^30 jobs); callers treat 0 as "cannot fit". A
// relative slack of 1e-12 keeps an exact multiple (72 h in 24 h jobs) from
// rounding up to an extra job. It panics unless compute ≥ 0, walltime > 0
// and overhead ≥ 0, all finite.
func WallTimeChunks(computeHours, walltimeHours, checkpointOverheadHours float64) int {
	checkNonNeg("WallTimeChunks", "computeHours", computeHours)
	checkPos("WallTimeChunks", "walltimeHours", walltimeHours)
	checkNonNeg("WallTimeChunks", "checkpointOverheadHours", checkpointOverheadHours)
	usable := walltimeHours - checkpointOverheadHours
	if usable <= 0 {
		return 0
	}
	q := math.Ceil(computeHours / usable * (1 - 1e-12))
	if q > maxChunks {
		return 0
	}
	return max(1, int(q))
}

func checkNonNeg(fn, name string, v float64) {
	if !(v >= 0) || math.IsInf(v, 0) {
		panic(fmt.Sprintf("model: %s: %s %g out of range (allowed: a finite number ≥ 0)", fn, name, v))
	}
}

func checkPos(fn, name string, v float64) {
	if !(v > 0) || math.IsInf(v, 0) {
		panic(fmt.Sprintf("model: %s: %s %g out of range (allowed: a finite number > 0)", fn, name, v))
	}
}
