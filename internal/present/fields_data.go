package present

import "hostplan/internal/model"

// The wording of the data and the five decision dimensions. The
// dimensions' help is the seed's question for each (the readiness brief's
// "Decision dimension | Questions to answer" table).

var dataFields = []Field{
	{"data", "Data", "",
		"The data the workload reads: how much, how sensitive, where it must stay, what may leave and what may come back."},
	{"data.volume_gb", "Data volume", "GB",
		"Size of the data one run reads, in GB (10^9 bytes); it is staged before the run and stored where the direction keeps it."},
	{"data.file_count", "File count", "files",
		"Files in the data set; many small files slow staging (about 5 ms each) more than their total size suggests."},
	{"data.classification", "Classification", "",
		"How sensitive the data is: public, internal, confidential or restricted."},
	{"data.personal_data", "Personal data", "",
		"Whether the data holds personal data; it raises what is at stake in where the data is processed."},
	{"data.residency", "Residency", "",
		"Region the data must stay in (a code such as EU, US or DE), or \"any\"; a direction that processes it elsewhere is ruled out."},
	{"data.movement", "Data movement", "",
		"What may leave the controlled environment: anything residency allows, only an approved minimised snapshot, or nothing."},
	{"data.snapshot_gb", "Approved snapshot size", "GB",
		"Size of the approved, minimised snapshot that may leave; hybrid stages only this. Needed when only a snapshot may leave."},
	{"data.return_outputs", "Outputs returned", "",
		"Which outputs may come back to the controlled environment after a run; anything else stays or is deleted."},
	{"data.output_gb", "Output per run", "GB",
		"Size of what one run sends back (checkpoints, results, logs); charged as egress where the provider bills for it."},
	{"data.retention_owner", "Retention owner", "",
		"Who decides what is kept, archived or deleted after a run, and confirms that the clean-up happened."},
	{"data.storage_gbps", "Storage throughput", "GB/s",
		"How fast the source storage delivers data (" + exact(model.DefaultStorageGBps) + " GB/s when not given, an estimate); it sets the staging time."},
	{"data.location", "Data location", "",
		"Where the data lives: on site, in a cloud provider's storage, or at the HPC centre. A direction that runs where it lives reads it in place and stages nothing; the others copy it before each run. Not given: every direction stages it from the source storage."},
	{"data.uplink_gbit_s", "Site uplink", "Gbit/s",
		"The site's link to clouds and HPC centres, in Gbit/s (1 Gbit/s moves 0.125 GB/s); data that leaves or enters the site is staged no faster than this or the source storage. Not given: no limit beyond the storage."},
	{"data.controlled_environment", "Controlled environment", "",
		"Where the source of record lives and sensitive work stays, e.g. the on-premises research cluster."},
	{"data.lifecycle", "Lifecycle", "",
		"The seven stages of the data lifecycle, each with an owner and a status; a stage without an owner is a gate that can block the work."},
	{"data.lifecycle[].stage", "Lifecycle stage", "",
		"Which of the seven stages: collect, ingest, prepare, stage, compute, evaluate or retain."},
	{"data.lifecycle[].owner", "Lifecycle stage owner", "",
		"Who owns the stage and its minimum control."},
	{"data.lifecycle[].status", "Lifecycle stage status", "",
		"How far the stage's control has got: open, in progress, done or not applicable."},
	{"data.provider_may_process", "Provider may process the data", "",
		"Whether a managed service provider may receive and keep the data; without it the managed service is ruled out."},
}

var dimensionFields = []Field{
	{"dimensions", "Decision dimensions", "",
		"The five dimensions the feasible directions are scored on, each with a weight and the facts it is judged by."},

	{"dimensions.sovereignty", "Sovereignty", "",
		"Where may inputs, logs, checkpoints and outputs be stored or processed?"},
	{"dimensions.sovereignty.weight", "Sovereignty weight", "relative",
		"How much sovereignty counts in the ranking, relative to the other four weights; 0 leaves it out."},
	{"dimensions.sovereignty.notes", "Sovereignty notes", "",
		"Anything else about where data and results may go, such as a contract clause or a regulator's condition."},

	{"dimensions.workload_shape", "Workload shape", "",
		"Interactive or batch? Continuous demand or occasional burst? One node or many?"},
	{"dimensions.workload_shape.weight", "Workload shape weight", "relative",
		"How much the fit between the direction and the workload's shape and demand counts, relative to the other four weights."},
	{"dimensions.workload_shape.pattern", "Demand pattern", "",
		"How demand arrives: continuously, periodically (nightly, quarterly) or in occasional bursts; owned hardware suits continuous demand."},

	{"dimensions.operations", "Operations", "",
		"Who patches, monitors, supports, secures and updates the environment?"},
	{"dimensions.operations.weight", "Operations weight", "relative",
		"How much the operating effort and the team's skills count, relative to the other four weights."},
	{"dimensions.operations.staff_fte", "Operations staff", "FTE",
		"Operations staff the team can give this workload, in full-time equivalents; a direction that needs more is ruled out."},
	{"dimensions.operations.skills", "Team skills", "",
		"Skills the team has; a direction whose core skill is missing is ruled out (a scenario that lists none is not judged)."},

	{"dimensions.economics", "Economics", "",
		"What drives variable cost, idle capacity, transfer cost, licences and staff effort?"},
	{"dimensions.economics.weight", "Economics weight", "relative",
		"How much the cost over the horizon counts, relative to the other four weights."},
	{"dimensions.economics.budget_cap", "Budget cap over the horizon", "¤",
		"The most the workload may cost over the whole horizon; a direction above it is ruled out."},
	{"dimensions.economics.horizon_months", "Horizon", "months",
		"Planning horizon over which every direction's costs are totalled and compared, 1–120 months."},

	{"dimensions.optionality", "Optionality", "",
		"Can data, containers, artefacts and evaluation evidence move to another environment?"},
	{"dimensions.optionality.weight", "Optionality weight", "relative",
		"How much the freedom to leave a direction later counts, relative to the other four weights."},
	{"dimensions.optionality.exit_required", "Exit required", "",
		"Whether the team must be able to move data, containers and artefacts elsewhere; lock-in then weighs more in the score."},
}
