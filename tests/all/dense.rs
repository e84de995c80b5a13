//! The search on dense boards (many pieces, many captures on all sides) stays small: a
//! shallow search visits a bounded number of positions whatever the board, because the
//! quiescence search is bounded in width and depth. Counted in nodes, never in time, so
//! the tests hold on any machine.

use duckchess::engine::search;
use duckchess::judge::board::Board;
use duckchess::judge::rules;

/// Dense positions with the most nodes found: random placements (the first is one a
/// player tried), then a random game that hardly captured. Without a bound on the
/// quiescence search each of the placements took from 900,000 nodes to the 8,000,000
/// node cap of a depth-limited search at depth 1.
const DENSE: [&str; 8] = [
    "E8/D4r1kh/ddSDSh1E1/s2S2DD1/r1K2h2E/eH1h2gD1/hHdGesSSE/r1SS5/1Grd4e/4Rs1H1 r",
    "S1R2DegS/6DSR/rSSD1D2e/1sKg1sed1/1dG1E1rDH/1sE1ESREH/R1s1H2HD/1GGRH1GES/G2s1g3/1Ek1h1RH1 r",
    "GH1dSeEGk/1Sd1sdSe1/sHSGEEHe1/1RSDHHGer/R1SSdEehd/1dgrGGr1h/dSH1eDDh1/1SeHeeh1G/HhEHSGKeg/HEDd2ghd r",
    "RdrghsRe1/DK2GHh2/r2GRDrSr/shSGD1sdr/EeHHHHde1/heD1rerrR/G1eedDdrg/h1k1sRSSs/rrsHHhgSd/HRDSsSdSd b",
    "dse1s1Sd1/EHgsRGSr1/1gSDd2Hs/eheG2dGR/eR1eDkgg1/1ESshddg1/hshgss1Gd/hHrHdEdSH/GsGrh1H1K/1SDhgDeGr r",
    "hGE2rSSd/sH1kGgrss/serhhRRGr/rg1ds2R1/DGH1KE1gg/grR1edrhE/dE1segH1r/S1gEHDGgD/g1hdG3s/Rdd1SDsrs r",
    "hehg1sh2/DR2D3S/1E1hGeREs/hgG1r1Hrd/3gSHssS/K1H2rHSH/eES1sG3/eDhd1dghg/2EgdhREd/dkhDDsDsS r",
    "rheg1g2r/9/2s3h1d/3s1k3/2ed3ss/3Ss2S1/SD1S5/H2G2H1D/4G2RS/2E1K1E2 r",
];

/// The most nodes a search of depth 1 may visit on any of them: a few milliseconds.
const DEPTH_1_NODES: u64 = 20_000;
/// The most nodes a search of depth 2 may visit on any of them.
const DEPTH_2_NODES: u64 = 100_000;

#[test]
fn shallow_searches_of_dense_positions_stay_small() {
    for fen in DENSE {
        let board: Board = fen.parse().expect("the test positions are valid");
        for (depth, most) in [(1, DEPTH_1_NODES), (2, DEPTH_2_NODES)] {
            let r = search::search_depth(&board, depth);
            assert!(r.nodes < most, "{fen} depth {depth}: {} nodes", r.nodes);
            assert_eq!(r.depth, depth, "{fen}: the iteration completes");
            let best = r.best.expect("every test position has a move");
            assert!(
                rules::legal_moves(&board).contains(&best),
                "{fen}: {best:?}"
            );
        }
    }
}

#[test]
fn the_first_dense_position_answers_depth_1_in_few_nodes() {
    let board: Board = DENSE[0].parse().unwrap();
    let r = search::search_depth(&board, 1);
    assert!(r.nodes < 5_000, "{} nodes", r.nodes);
}
