package crt

// Plane is an aircraft under AA fire: its air-to-air factor and the
// factors it brings to the mission (bombing factors on a raid, tactical
// factors as ground support).
type Plane struct {
	A2A     int
	Factors float64
}

// AAShot is what one round of AA fire did to a line of aircraft.
type AAShot struct {
	Hit     int     // the first Hit aircraft, destroyed by 6s
	Aborted int     // the next Aborted aircraft, aborted by asterisks
	Press   float64 // factors of the aircraft left that press the attack
}

// Shoot applies AA fire (docs/rules.md §5 steps 3-6; AsA 3.2.1, 3.2.2) to
// planes, listed in the order AA fire takes them (lowest air-to-air first),
// for the rolls of the AA dice on table (1-based; any value when no dice
// are rolled). It is the one copy of
// the procedure: raids and AA fire at ground support both call it.
//
//   - The results' factors add up to the total T that does not press.
//   - Each 6 in turn destroys the next aircraft if its air-to-air factor is
//     below T, and T falls by its factors; once one fails the rest fail
//     too, since neither T nor that aircraft changes. A 6 that destroys is
//     not also an abort.
//   - Each asterisk left aborts the next aircraft; T falls by its factors.
//   - What is left of T (not below 0) comes off the factors still flying.
func (a *AirTables) Shoot(table int, rolls []int, planes []Plane) AAShot {
	total, sixes, stars := 0, 0, 0
	sixStar := false
	for _, die := range rolls {
		r := a.AATables[table-1][die-1]
		total += r.Factors
		if r.Star {
			stars++
		}
		if die == 6 {
			sixes++
			sixStar = r.Star
		}
	}
	t := float64(total)
	var s AAShot
	next := 0
	for k := 0; k < sixes && next < len(planes); k++ {
		if float64(planes[next].A2A) >= t {
			break
		}
		t -= planes[next].Factors
		next++
		s.Hit++
		if sixStar {
			stars--
		}
	}
	for ; stars > 0 && next < len(planes); stars-- {
		t -= planes[next].Factors
		next++
		s.Aborted++
	}
	for _, p := range planes[next:] {
		s.Press += p.Factors
	}
	s.Press = max(0, s.Press-max(t, 0))
	return s
}
