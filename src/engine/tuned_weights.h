// The tuned weights of each game, as `Eval Weights` overrides of the
// hand-set starting point in evaluate.cpp. Written by `echecs tune` on
// positions from `echecs selfplay`; the commands and figures are in
// docs/ENGINE.md ("Tuning"). Empty: the hand-set weights are used.
#pragma once

#include <string_view>

namespace echecs::engine::tuned {

// Chess keeps its hand-set weights: the tuned set lost in self-play
// (docs/STRENGTH.md, "Tuning").
inline constexpr std::string_view CHESS = "";
inline constexpr std::string_view ALICE =
    "material.pawn.mg=43,material.pawn.eg=99,material.knight.mg=301,material.knight.eg=253,material.bisho"
    "p.mg=341,material.bishop.eg=260,material.rook.mg=509,material.rook.eg=551,material.queen.mg=1064,mat"
    "erial.queen.eg=975,mobility.knight.mg=17,mobility.knight.eg=-2,mobility.bishop.mg=22,mobility.bishop"
    ".eg=1,mobility.rook.mg=14,mobility.rook.eg=1,mobility.queen.mg=8,mobility.queen.eg=10,king_attack_we"
    "ight.knight=1,king_attack_weight.rook=2,king_attack_weight.queen=2,bishop_pair.eg=64,rook_open.mg=59"
    ",rook_open.eg=-1,rook_semi_open.mg=22,rook_semi_open.eg=38,rook_seventh.mg=42,rook_seventh.eg=32,dou"
    "bled.mg=41,doubled.eg=-18,isolated.mg=6,isolated.eg=5,passed.2.mg=-34,passed.2.eg=31,passed.3.mg=-29"
    ",passed.3.eg=32,passed.4.mg=-18,passed.4.eg=42,passed.5.mg=4,passed.5.eg=84,passed.6.mg=46,passed.6."
    "eg=100,passed.7.mg=84,passed.7.eg=136,tempo=20,knight_centre.0.mg=18,knight_centre.0.eg=-11,bishop_c"
    "entre.0.mg=-18,bishop_centre.0.eg=-30,queen_centre.0.mg=15,queen_centre.0.eg=47,king_centre_eg.0=-9,"
    "knight_centre.1.mg=-2,knight_centre.1.eg=-21,bishop_centre.1.mg=20,bishop_centre.1.eg=-18,queen_cent"
    "re.1.mg=14,queen_centre.1.eg=18,king_centre_eg.1=34,knight_centre.2.mg=-41,knight_centre.2.eg=-33,bi"
    "shop_centre.2.mg=2,queen_centre.2.mg=16,queen_centre.2.eg=34,king_centre_eg.2=39,knight_centre.3.mg="
    "-49,knight_centre.3.eg=-44,bishop_centre.3.mg=-13,bishop_centre.3.eg=-38,queen_centre.3.mg=-6,queen_"
    "centre.3.eg=-29,king_centre_eg.3=10,king_file_mg.a=14,king_file_mg.b=67,king_file_mg.c=25,king_file_"
    "mg.d=-39,king_file_mg.e=31,king_file_mg.f=48,king_file_mg.g=21,king_file_mg.h=-1,king_rank2_mg=0,kin"
    "g_high_mg=-4,pawn_rank.3.mg=-25,pawn_rank.3.eg=8,pawn_rank.4.mg=-11,pawn_rank.4.eg=34,pawn_rank.5.mg"
    "=21,pawn_rank.5.eg=10,pawn_rank.6.mg=59,pawn_rank.6.eg=70,pawn_rank.7.mg=41,pawn_rank.7.eg=64,pawn_c"
    "entre=2,pawn_wide_centre=16,rook_centre_file=-20,transfer_check.mg=31,transfer_check.eg=22,escape_sq"
    "uare.mg=4,escape_square.eg=3,no_escape.mg=5,no_escape.eg=54";
inline constexpr std::string_view AVALANCHE =
    "material.pawn.mg=80,material.pawn.eg=163,material.knight.mg=353,material.knight.eg=254,material.bish"
    "op.mg=402,material.bishop.eg=250,material.rook.mg=418,material.rook.eg=523,material.queen.mg=1101,ma"
    "terial.queen.eg=976,mobility.knight.mg=26,mobility.knight.eg=-23,mobility.bishop.mg=12,mobility.bish"
    "op.eg=-2,mobility.rook.mg=14,mobility.rook.eg=2,mobility.queen.mg=15,mobility.queen.eg=-5,king_attac"
    "k_weight.bishop=0,king_attack_weight.rook=0,king_attack_weight.queen=3,bishop_pair.mg=37,bishop_pair"
    ".eg=128,rook_open.mg=85,rook_open.eg=-7,rook_semi_open.mg=80,rook_semi_open.eg=90,rook_seventh.mg=86"
    ",rook_seventh.eg=-5,doubled.mg=76,doubled.eg=108,isolated.mg=-8,isolated.eg=68,passed.2.mg=-7,passed"
    ".2.eg=93,passed.3.mg=34,passed.3.eg=92,passed.4.mg=38,passed.4.eg=61,passed.5.mg=57,passed.5.eg=92,p"
    "assed.6.mg=76,passed.6.eg=58,passed.7.mg=78,passed.7.eg=110,tempo=19,shield.near=4,shield.far=0,shie"
    "ld.missing=-9,knight_centre.0.mg=46,knight_centre.0.eg=-22,bishop_centre.0.mg=45,bishop_centre.0.eg="
    "-55,queen_centre.0.mg=35,queen_centre.0.eg=78,king_centre_eg.0=-35,knight_centre.1.mg=25,knight_cent"
    "re.1.eg=29,bishop_centre.1.mg=18,bishop_centre.1.eg=8,queen_centre.1.mg=18,queen_centre.1.eg=66,king"
    "_centre_eg.1=59,knight_centre.2.mg=23,knight_centre.2.eg=-8,bishop_centre.2.mg=29,bishop_centre.2.eg"
    "=-33,queen_centre.2.mg=12,queen_centre.2.eg=-59,king_centre_eg.2=63,knight_centre.3.mg=-42,knight_ce"
    "ntre.3.eg=-75,bishop_centre.3.mg=-30,bishop_centre.3.eg=-2,queen_centre.3.mg=2,queen_centre.3.eg=-21"
    ",king_centre_eg.3=19,king_file_mg.a=76,king_file_mg.b=-13,king_file_mg.c=49,king_file_mg.d=51,king_f"
    "ile_mg.e=48,king_file_mg.f=18,king_file_mg.g=116,king_file_mg.h=83,king_rank2_mg=-79,king_high_mg=-2"
    "6,pawn_rank.3.mg=5,pawn_rank.3.eg=16,pawn_rank.4.mg=19,pawn_rank.4.eg=41,pawn_rank.5.mg=24,pawn_rank"
    ".5.eg=25,pawn_rank.6.mg=54,pawn_rank.6.eg=89,pawn_rank.7.mg=49,pawn_rank.7.eg=54,pawn_centre=50,pawn"
    "_wide_centre=22,rook_centre_file=17,pawn_in_front_of_king.mg=-13,pawn_in_front_of_king.eg=-70,forced"
    "_push.mg=112,forced_push.eg=148";

}  // namespace echecs::engine::tuned
