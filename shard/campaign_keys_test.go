package shard

import (
	"context"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/internal/fixture"
)

// Red-team finding F4: a campaign part whose key was replaced by 2^64-1
// and its digest recomputed merged into "31 factories destroyed" of a
// target's 2 and 65,535 factors bombing. Every key the exact campaign can
// give passes the check (no honest part is refused), and a key one past
// the limit in any metric is refused, naming it.
func TestCheckCampaignKeys(t *testing.T) {
	for _, path := range []string{"../examples/night-raid-campaign.yaml", "../examples/dusseldorf-bombardment.yaml"} {
		r := fixture.Raid(t, path)
		for _, raids := range []int{1, 2, 3, 6} {
			dist, _, err := r.CampaignExact(context.Background(), raids, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			keys := map[uint64]uint64{}
			var reached combat.CampaignTotals
			for k := range dist {
				keys[k] = 1
				for m, v := range combat.UnpackCampaign(k) {
					reached[m] = max(reached[m], v)
				}
			}
			if err := CheckCampaignKeys(r, keys, raids); err != nil {
				t.Errorf("%s, %d raids: an exact key refused: %v", path, raids, err)
			}
			limits := r.CampaignLimits(raids)
			if limits[1] > r.Scenario.Raid.Target.Factories || limits[5] > 0 && !hasCarrier(r) {
				t.Errorf("%s, %d raids: limits %v past what the scenario has", path, raids, limits)
			}
			for m, metric := range combat.RaidMetrics {
				if limits[m] < reached[m] {
					t.Errorf("%s, %d raids: %s limit %d under the %d reached", path, raids, metric.Name, limits[m], reached[m])
				}
				if limits[m] == 1<<metric.Bits-1 {
					continue // nothing past it fits the key
				}
				forged := reached
				forged[m] = limits[m] + 1
				err := CheckCampaignKeys(r, map[uint64]uint64{combat.PackCampaign(forged): 1}, raids)
				if err == nil || !strings.Contains(err.Error(), metric.Label) {
					t.Errorf("%s, %d raids: %s at %d: got %v", path, raids, metric.Name, forged[m], err)
				}
			}
		}
		if err := CheckCampaignKeys(r, map[uint64]uint64{1<<64 - 1: 1}, 3); err == nil {
			t.Errorf("%s: key 2^64-1 accepted", path)
		}
	}
}

func hasCarrier(r *combat.Raid) bool {
	for _, b := range r.Scenario.Raid.Bombers {
		if b.Carrier {
			return true
		}
	}
	return false
}
