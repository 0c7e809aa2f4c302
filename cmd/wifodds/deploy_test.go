package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The Kubernetes manifest is an Indexed Job whose pods run the battery's
// shards, and a merge Job; its own commands, run here with the index
// substituted (and the scenarios and trials scaled down), give parts that
// merge.
func TestKubernetesManifest(t *testing.T) {
	data, err := os.ReadFile("../../deploy/k8s/battery-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	type container struct {
		Args []string `yaml:"args"`
	}
	type job struct {
		Kind string `yaml:"kind"`
		Spec struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    int    `yaml:"completions"`
			Template       struct {
				Spec struct {
					Containers []container `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	var jobs []job
	for {
		var j job
		if err := dec.Decode(&j); err != nil {
			break
		}
		jobs = append(jobs, j)
	}
	if len(jobs) != 2 || jobs[0].Kind != "Job" || jobs[0].Spec.CompletionMode != "Indexed" || jobs[0].Spec.Completions < 2 {
		t.Fatalf("want an Indexed Job and a merge Job, got %+v", jobs)
	}
	n := jobs[0].Spec.Completions
	shardArgs := jobs[0].Spec.Template.Spec.Containers[0].Args
	mergeArgs := jobs[1].Spec.Template.Spec.Containers[0].Args
	if !slices.Contains(shardArgs, "--shard-from-zero") || !slices.Contains(shardArgs, "$(JOB_COMPLETION_INDEX)/"+strconv.Itoa(n)) || mergeArgs[0] != "merge" {
		t.Fatalf("shard args %v, merge args %v", shardArgs, mergeArgs)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "parts"), 0o755); err != nil {
		t.Fatal(err)
	}
	local := func(a string) string {
		switch {
		case a == "scenarios":
			return "../../examples/fractional-odds-16to3.yaml"
		case a == "10000000":
			return "20000"
		case strings.HasPrefix(a, "parts/") || strings.HasPrefix(a, "battery."):
			return filepath.Join(dir, a)
		}
		return a
	}
	for k := 0; k < n; k++ {
		var args []string
		for _, a := range shardArgs {
			args = append(args, local(strings.ReplaceAll(a, "$(JOB_COMPLETION_INDEX)", strconv.Itoa(k))))
		}
		if _, errs, code := wifodds(t, args...); code != 0 {
			t.Fatalf("shard %d: %s", k, errs)
		}
	}
	var args []string
	for _, a := range mergeArgs {
		args = append(args, local(a))
	}
	if _, errs, code := wifodds(t, args...); code != 0 {
		t.Fatalf("merge: %s", errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "battery.html")); err != nil {
		t.Error("the merge wrote no page")
	}
	slurm, err := os.ReadFile("../../deploy/slurm/battery.sbatch")
	if err != nil || !strings.Contains(string(slurm), `--shard "${SLURM_ARRAY_TASK_ID}/${N}"`) {
		t.Errorf("the Slurm script does not run a shard per array task: %v", err)
	}
}
