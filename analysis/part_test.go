package analysis

import "testing"

// No run part, however damaged, makes ReadRunPart or MergeRuns panic.
func FuzzReadRunPart(f *testing.F) {
	p := &RunPart{Format: RunPartFormat, Shard: 1, Shards: 1, File: "x.yaml", Scenario: "kind: land\n", Trials: 10, Seed: 1, Raids: 1, Counts: []uint64{4, 6}, ShardTrials: 10}
	p.Seal()
	good := []byte(`{"format":"wifodds-run-part/1","hash":"` + p.Hash + `","shard":1,"shards":1,"file":"x.yaml","scenario":"kind: land\n","trials":10,"seed":1,"raids":1,"workers":0,"explain":false,"counts":[4,6],"shard_trials":10,"elapsed_seconds":0}`)
	if _, err := ReadRunPart("p.json", good); err != nil {
		f.Fatalf("the seed part is refused: %v", err)
	}
	f.Add(good)
	f.Add([]byte(`{"format":"wifodds-run-part/1","shard":2,"shards":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadRunPart("p.json", data)
		if err != nil {
			return
		}
		MergeRuns(map[string]*RunPart{"p.json": p})
	})
}
