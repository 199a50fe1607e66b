package present

import (
	"fmt"
	"strconv"

	"hostplan/internal/present/num"
)

// Layout writes a parallel layout: for training "tensor parallel 8 ×
// pipeline 2 × data parallel 3, 16 micro-batches a step, bubble 6 %"; for
// serving "replicas of tensor parallel 8 × pipeline 2 (16 GPUs each), 3 at
// the peak".
func Layout(tensor, pipeline, data, microBatches int, bubble float64, serving bool) string {
	if serving {
		return fmt.Sprintf("replicas of tensor parallel %d × pipeline %d (%s each), %d at the peak",
			tensor, pipeline, Count(tensor*pipeline, "GPU"), data)
	}
	mb := "1 micro-batch"
	if microBatches != 1 {
		mb = num.Group(strconv.Itoa(microBatches)) + " micro-batches"
	}
	return fmt.Sprintf("tensor parallel %d × pipeline %d × data parallel %d, %s a step, bubble %s",
		tensor, pipeline, data, mb, Percent(bubble))
}
