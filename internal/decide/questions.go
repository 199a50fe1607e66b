package decide

import (
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// bottleneckQuestions maps the model's bottlenecks (DirectionResult
// .Bottleneck, docs/report.md) to the first infrastructure question each
// raises: a slow job does not automatically need more GPUs, so each
// question asks for the measurement that tells what limits it.
var bottleneckQuestions = map[model.Bottleneck]string{
	model.BottleneckCompute:         "Does a short run on the proposed GPUs reach the utilisation (MFU) the estimate assumes, or is throughput lower than planned?",
	model.BottleneckCommunication:   "Does throughput keep rising when GPUs on a second node are added, or does the interconnect cap it?",
	model.BottleneckSerial:          "Which part of each step does not run in parallel, and can it be removed before asking for more GPUs?",
	model.BottleneckDataPath:        "Can a representative sample be transferred and loaded at the rate the run needs, without leaving GPUs idle?",
	model.BottleneckMemoryCapacity:  "Does the model fit GPU memory at the planned precision and batch, or are sharding, recomputation or larger GPUs needed?",
	model.BottleneckMemoryBandwidth: "How many concurrent requests does one replica serve within the latency target before responses slow down?",
	model.BottleneckQueue:           "How long do jobs of this size actually wait in the queue, and does the allocation cover the whole run?",
	model.BottleneckMeasured:        "Does the scaling measured in the trial hold at the GPU count the plan relies on?",
}

// providerQuestion is asked of a managed service, whose internals are not
// visible (the report names no bottleneck for it).
const providerQuestion = "What rate limits, data terms and unit price does the provider give at the expected volume?"

// BottleneckQuestion returns the first infrastructure question a
// bottleneck raises; "" (a managed service) gets the provider question.
func BottleneckQuestion(bottleneck model.Bottleneck) string {
	if q, ok := bottleneckQuestions[bottleneck]; ok {
		return q
	}
	if bottleneck == "" {
		return providerQuestion
	}
	return "What limits this run first, and which short measurement would show it?"
}

// bottleneckLabel is the bottleneck as a reader sees it.
func bottleneckLabel(direction string, bottleneck model.Bottleneck) string {
	if bottleneck == "" && direction == scenario.Managed {
		return "provider service (not visible)"
	}
	if bottleneck == "" {
		return "not stated"
	}
	return bottleneck.Text()
}
