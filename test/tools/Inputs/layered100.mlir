// Imported by ckpt.import_graph from random_layered_n100_w0.27_nlv0.75_ed0.2_scd0.14.json: 100 nodes (0 backward), 236 links.
// Loss: node 1. Result sizes: the node's memory in bytes; ckpt.cost time = the node's cost x 1.0 s.
func.func @random_layered_n100_w0_27_nlv0_75_ed0_2_scd0_14_step(%in0: tensor<790xi8>) -> (tensor<f32>) attributes {ckpt.loss = 0 : i64} {
  %n2 = ckpt.opaque "2"(%in0) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2740, time = 514.0>} : (tensor<790xi8>) -> tensor<1950xi8>
  %n3 = ckpt.opaque "3"(%in0) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2770, time = 896.0>} : (tensor<790xi8>) -> tensor<1980xi8>
  %n4 = ckpt.opaque "4"(%in0) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 6110, time = 955.0>} : (tensor<790xi8>) -> tensor<5320xi8>
  %n5 = ckpt.opaque "5"(%in0) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2000, time = 460.0>} : (tensor<790xi8>) -> tensor<1210xi8>
  %n6 = ckpt.opaque "6"(%in0) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1380, time = 110.0>} : (tensor<790xi8>) -> tensor<590xi8>
  %n7 = ckpt.opaque "7"(%in0) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 6870, time = 11.0>} : (tensor<790xi8>) -> tensor<6080xi8>
  %n8 = ckpt.opaque "8"(%in0) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1650, time = 4.0>} : (tensor<790xi8>) -> tensor<860xi8>
  %n9 = ckpt.opaque "9"(%n2, %n3) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 4890, time = 74.0>} : (tensor<1950xi8>, tensor<1980xi8>) -> tensor<960xi8>
  %n10 = ckpt.opaque "10"(%n2, %n3, %n4) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 11290, time = 800.0>} : (tensor<1950xi8>, tensor<1980xi8>, tensor<5320xi8>) -> tensor<2040xi8>
  %n11 = ckpt.opaque "11"(%n4, %n5) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 7530, time = 665.0>} : (tensor<5320xi8>, tensor<1210xi8>) -> tensor<1000xi8>
  %n12 = ckpt.opaque "12"(%n5, %n6) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 7800, time = 80.0>} : (tensor<1210xi8>, tensor<590xi8>) -> tensor<6000xi8>
  %n13 = ckpt.opaque "13"(%n5, %n6) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 3440, time = 741.0>} : (tensor<1210xi8>, tensor<590xi8>) -> tensor<1640xi8>
  %n14 = ckpt.opaque "14"(%n6, %n7) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 10500, time = 605.0>} : (tensor<590xi8>, tensor<6080xi8>) -> tensor<3830xi8>
  %n15 = ckpt.opaque "15"(%n6, %n7, %n8) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 10110, time = 518.0>} : (tensor<590xi8>, tensor<6080xi8>, tensor<860xi8>) -> tensor<2580xi8>
  %n16 = ckpt.opaque "16"(%n7, %n8) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 7880, time = 604.0>} : (tensor<6080xi8>, tensor<860xi8>) -> tensor<940xi8>
  %n17 = ckpt.opaque "17"(%n9, %n10) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 6320, time = 262.0>} : (tensor<960xi8>, tensor<2040xi8>) -> tensor<3320xi8>
  %n18 = ckpt.opaque "18"(%n10, %n11) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 7410, time = 552.0>} : (tensor<2040xi8>, tensor<1000xi8>) -> tensor<4370xi8>
  %n19 = ckpt.opaque "19"(%n11, %n12) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 7750, time = 68.0>} : (tensor<1000xi8>, tensor<6000xi8>) -> tensor<750xi8>
  %n20 = ckpt.opaque "20"(%n11, %n12, %n13) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 8780, time = 495.0>} : (tensor<1000xi8>, tensor<6000xi8>, tensor<1640xi8>) -> tensor<140xi8>
  %n21 = ckpt.opaque "21"(%n12, %n13, %n14) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 14870, time = 361.0>} : (tensor<6000xi8>, tensor<1640xi8>, tensor<3830xi8>) -> tensor<3400xi8>
  %n22 = ckpt.opaque "22"(%n13, %n14, %n15) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 8810, time = 719.0>} : (tensor<1640xi8>, tensor<3830xi8>, tensor<2580xi8>) -> tensor<760xi8>
  %n23 = ckpt.opaque "23"(%n15, %n16) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 5640, time = 563.0>} : (tensor<2580xi8>, tensor<940xi8>) -> tensor<2120xi8>
  %n24 = ckpt.opaque "24"(%n15, %n16) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 3710, time = 45.0>} : (tensor<2580xi8>, tensor<940xi8>) -> tensor<190xi8>
  %n25 = ckpt.opaque "25"(%n17, %n18, %n19, %n20) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 12639, time = 136.0>} : (tensor<3320xi8>, tensor<4370xi8>, tensor<750xi8>, tensor<140xi8>) -> tensor<4059xi8>
  %n26 = ckpt.opaque "26"(%n17, %n20, %n21, %n22, %n23, %n24) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 11970, time = 511.0>} : (tensor<3320xi8>, tensor<140xi8>, tensor<3400xi8>, tensor<760xi8>, tensor<2120xi8>, tensor<190xi8>) -> tensor<2040xi8>
  %n27 = ckpt.opaque "27"(%n25) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 6059, time = 389.0>} : (tensor<4059xi8>) -> tensor<2000xi8>
  %n28 = ckpt.opaque "28"(%n25) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 4629, time = 573.0>} : (tensor<4059xi8>) -> tensor<570xi8>
  %n29 = ckpt.opaque "29"(%n25, %n26) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 7239, time = 816.0>} : (tensor<4059xi8>, tensor<2040xi8>) -> tensor<1140xi8>
  %n30 = ckpt.opaque "30"(%n26) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 5900, time = 33.0>} : (tensor<2040xi8>) -> tensor<3860xi8>
  %n31 = ckpt.opaque "31"(%n26) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2760, time = 135.0>} : (tensor<2040xi8>) -> tensor<720xi8>
  %n32 = ckpt.opaque "32"(%n14, %n26) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 8380, time = 929.0>} : (tensor<3830xi8>, tensor<2040xi8>) -> tensor<2510xi8>
  %n33 = ckpt.opaque "33"(%n27, %n28, %n29, %n32) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 9770, time = 606.0>} : (tensor<2000xi8>, tensor<570xi8>, tensor<1140xi8>, tensor<2510xi8>) -> tensor<3550xi8>
  %n34 = ckpt.opaque "34"(%n30, %n31, %n32) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 8800, time = 76.0>} : (tensor<3860xi8>, tensor<720xi8>, tensor<2510xi8>) -> tensor<1710xi8>
  %n35 = ckpt.opaque "35"(%n18, %n27, %n33) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 10150, time = 799.0>} : (tensor<4370xi8>, tensor<2000xi8>, tensor<3550xi8>) -> tensor<230xi8>
  %n36 = ckpt.opaque "36"(%n33, %n34) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 8110, time = 406.0>} : (tensor<3550xi8>, tensor<1710xi8>) -> tensor<2850xi8>
  %n37 = ckpt.opaque "37"(%n15, %n34) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 7580, time = 834.0>} : (tensor<2580xi8>, tensor<1710xi8>) -> tensor<3290xi8>
  %n38 = ckpt.opaque "38"(%n35) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1410, time = 595.0>} : (tensor<230xi8>) -> tensor<1180xi8>
  %n39 = ckpt.opaque "39"(%n35) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 3610, time = 593.0>} : (tensor<230xi8>) -> tensor<3380xi8>
  %n40 = ckpt.opaque "40"(%n36, %n37) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 6730, time = 769.0>} : (tensor<2850xi8>, tensor<3290xi8>) -> tensor<590xi8>
  %n41 = ckpt.opaque "41"(%n36, %n37) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 6940, time = 281.0>} : (tensor<2850xi8>, tensor<3290xi8>) -> tensor<800xi8>
  %n42 = ckpt.opaque "42"(%n31, %n37) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 4090, time = 61.0>} : (tensor<720xi8>, tensor<3290xi8>) -> tensor<80xi8>
  %n43 = ckpt.opaque "43"(%n37) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 5370, time = 142.0>} : (tensor<3290xi8>) -> tensor<2080xi8>
  %n44 = ckpt.opaque "44"(%n38) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2560, time = 29.0>} : (tensor<1180xi8>) -> tensor<1380xi8>
  %n45 = ckpt.opaque "45"(%n38, %n39) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 5040, time = 118.0>} : (tensor<1180xi8>, tensor<3380xi8>) -> tensor<480xi8>
  %n46 = ckpt.opaque "46"(%n39, %n40, %n41) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 5140, time = 539.0>} : (tensor<3380xi8>, tensor<590xi8>, tensor<800xi8>) -> tensor<370xi8>
  %n47 = ckpt.opaque "47"(%n5, %n40, %n41, %n42, %n43) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 6280, time = 696.0>} : (tensor<1210xi8>, tensor<590xi8>, tensor<800xi8>, tensor<80xi8>, tensor<2080xi8>) -> tensor<1520xi8>
  %n48 = ckpt.opaque "48"(%n43) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2940, time = 127.0>} : (tensor<2080xi8>) -> tensor<860xi8>
  %n49 = ckpt.opaque "49"(%n44, %n45) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2600, time = 492.0>} : (tensor<1380xi8>, tensor<480xi8>) -> tensor<740xi8>
  %n50 = ckpt.opaque "50"(%n44, %n46, %n48) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 5950, time = 248.0>} : (tensor<1380xi8>, tensor<370xi8>, tensor<860xi8>) -> tensor<3340xi8>
  %n51 = ckpt.opaque "51"(%n7, %n43, %n47, %n48) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 11040, time = 823.0>} : (tensor<6080xi8>, tensor<2080xi8>, tensor<1520xi8>, tensor<860xi8>) -> tensor<500xi8>
  %n52 = ckpt.opaque "52"(%n49, %n50) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 4280, time = 480.0>} : (tensor<740xi8>, tensor<3340xi8>) -> tensor<200xi8>
  %n53 = ckpt.opaque "53"(%n49) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1390, time = 590.0>} : (tensor<740xi8>) -> tensor<650xi8>
  %n54 = ckpt.opaque "54"(%n49) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1740, time = 150.0>} : (tensor<740xi8>) -> tensor<1000xi8>
  %n55 = ckpt.opaque "55"(%n50) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 5349, time = 100.0>} : (tensor<3340xi8>) -> tensor<2009xi8>
  %n56 = ckpt.opaque "56"(%n50) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 8930, time = 215.0>} : (tensor<3340xi8>) -> tensor<5590xi8>
  %n57 = ckpt.opaque "57"(%n50) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 4020, time = 341.0>} : (tensor<3340xi8>) -> tensor<680xi8>
  %n58 = ckpt.opaque "58"(%n50, %n51) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 8360, time = 838.0>} : (tensor<3340xi8>, tensor<500xi8>) -> tensor<4520xi8>
  %n59 = ckpt.opaque "59"(%n50, %n51) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 7040, time = 659.0>} : (tensor<3340xi8>, tensor<500xi8>) -> tensor<3200xi8>
  %n60 = ckpt.opaque "60"(%n50, %n51) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 4130, time = 839.0>} : (tensor<3340xi8>, tensor<500xi8>) -> tensor<290xi8>
  %n61 = ckpt.opaque "61"(%n52, %n53, %n54) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 4420, time = 358.0>} : (tensor<200xi8>, tensor<650xi8>, tensor<1000xi8>) -> tensor<2570xi8>
  %n62 = ckpt.opaque "62"(%n52, %n53, %n54) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2610, time = 144.0>} : (tensor<200xi8>, tensor<650xi8>, tensor<1000xi8>) -> tensor<760xi8>
  %n63 = ckpt.opaque "63"(%n54, %n55) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 7729, time = 29.0>} : (tensor<1000xi8>, tensor<2009xi8>) -> tensor<4720xi8>
  %n64 = ckpt.opaque "64"(%n55, %n56) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 7679, time = 327.0>} : (tensor<2009xi8>, tensor<5590xi8>) -> tensor<80xi8>
  %n65 = ckpt.opaque "65"(%n55, %n56, %n57) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 10519, time = 524.0>} : (tensor<2009xi8>, tensor<5590xi8>, tensor<680xi8>) -> tensor<2240xi8>
  %n66 = ckpt.opaque "66"(%n57, %n58) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 8800, time = 216.0>} : (tensor<680xi8>, tensor<4520xi8>) -> tensor<3600xi8>
  %n67 = ckpt.opaque "67"(%n58, %n59) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 10090, time = 766.0>} : (tensor<4520xi8>, tensor<3200xi8>) -> tensor<2370xi8>
  %n68 = ckpt.opaque "68"(%n58, %n59, %n60) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 14160, time = 226.0>} : (tensor<4520xi8>, tensor<3200xi8>, tensor<290xi8>) -> tensor<6150xi8>
  %n69 = ckpt.opaque "69"(%n58, %n59, %n60) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 11180, time = 696.0>} : (tensor<4520xi8>, tensor<3200xi8>, tensor<290xi8>) -> tensor<3170xi8>
  %n70 = ckpt.opaque "70"(%n54, %n61, %n62, %n63, %n64, %n65, %n67, %n69) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 17820, time = 424.0>} : (tensor<1000xi8>, tensor<2570xi8>, tensor<760xi8>, tensor<4720xi8>, tensor<80xi8>, tensor<2240xi8>, tensor<2370xi8>, tensor<3170xi8>) -> tensor<910xi8>
  %n71 = ckpt.opaque "71"(%n34, %n36, %n66, %n67, %n68, %n69) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 20020, time = 445.0>} : (tensor<1710xi8>, tensor<2850xi8>, tensor<3600xi8>, tensor<2370xi8>, tensor<6150xi8>, tensor<3170xi8>) -> tensor<170xi8>
  %n72 = ckpt.opaque "72"(%n70, %n71) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1980, time = 908.0>} : (tensor<910xi8>, tensor<170xi8>) -> tensor<900xi8>
  %n73 = ckpt.opaque "73"(%n53, %n70) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 3100, time = 266.0>} : (tensor<650xi8>, tensor<910xi8>) -> tensor<1540xi8>
  %n74 = ckpt.opaque "74"(%n70) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2220, time = 874.0>} : (tensor<910xi8>) -> tensor<1310xi8>
  %n75 = ckpt.opaque "75"(%n31, %n71) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 6100, time = 309.0>} : (tensor<720xi8>, tensor<170xi8>) -> tensor<5210xi8>
  %n76 = ckpt.opaque "76"(%n26, %n71) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 3460, time = 993.0>} : (tensor<2040xi8>, tensor<170xi8>) -> tensor<1250xi8>
  %n77 = ckpt.opaque "77"(%n72, %n73) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 3040, time = 983.0>} : (tensor<900xi8>, tensor<1540xi8>) -> tensor<600xi8>
  %n78 = ckpt.opaque "78"(%n72, %n74, %n75) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 9470, time = 602.0>} : (tensor<900xi8>, tensor<1310xi8>, tensor<5210xi8>) -> tensor<2050xi8>
  %n79 = ckpt.opaque "79"(%n34, %n75, %n76) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 11890, time = 903.0>} : (tensor<1710xi8>, tensor<5210xi8>, tensor<1250xi8>) -> tensor<3720xi8>
  %n80 = ckpt.opaque "80"(%n77, %n78) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 6990, time = 230.0>} : (tensor<600xi8>, tensor<2050xi8>) -> tensor<4340xi8>
  %n81 = ckpt.opaque "81"(%n77, %n78) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 6020, time = 77.0>} : (tensor<600xi8>, tensor<2050xi8>) -> tensor<3370xi8>
  %n82 = ckpt.opaque "82"(%n77) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 4200, time = 926.0>} : (tensor<600xi8>) -> tensor<3600xi8>
  %n83 = ckpt.opaque "83"(%n78, %n79) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 6470, time = 432.0>} : (tensor<2050xi8>, tensor<3720xi8>) -> tensor<700xi8>
  %n84 = ckpt.opaque "84"(%n78) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2390, time = 731.0>} : (tensor<2050xi8>) -> tensor<340xi8>
  %n85 = ckpt.opaque "85"(%n50, %n78) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 7980, time = 305.0>} : (tensor<3340xi8>, tensor<2050xi8>) -> tensor<2590xi8>
  %n86 = ckpt.opaque "86"(%n79) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 8710, time = 902.0>} : (tensor<3720xi8>) -> tensor<4990xi8>
  %n87 = ckpt.opaque "87"(%n42, %n79) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 5350, time = 717.0>} : (tensor<80xi8>, tensor<3720xi8>) -> tensor<1550xi8>
  %n88 = ckpt.opaque "88"(%n26, %n78, %n79) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 7970, time = 828.0>} : (tensor<2040xi8>, tensor<2050xi8>, tensor<3720xi8>) -> tensor<160xi8>
  %n89 = ckpt.opaque "89"(%n80) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 5000, time = 624.0>} : (tensor<4340xi8>) -> tensor<660xi8>
  %n90 = ckpt.opaque "90"(%n72, %n80, %n81, %n82) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 13080, time = 162.0>} : (tensor<900xi8>, tensor<4340xi8>, tensor<3370xi8>, tensor<3600xi8>) -> tensor<870xi8>
  %n91 = ckpt.opaque "91"(%n70, %n81, %n82, %n83, %n84) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 10880, time = 364.0>} : (tensor<910xi8>, tensor<3370xi8>, tensor<3600xi8>, tensor<700xi8>, tensor<340xi8>) -> tensor<1960xi8>
  %n92 = ckpt.opaque "92"(%n83, %n84, %n85) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 5960, time = 924.0>} : (tensor<700xi8>, tensor<340xi8>, tensor<2590xi8>) -> tensor<2330xi8>
  %n93 = ckpt.opaque "93"(%n85, %n86, %n87, %n88) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 13080, time = 516.0>} : (tensor<2590xi8>, tensor<4990xi8>, tensor<1550xi8>, tensor<160xi8>) -> tensor<3790xi8>
  %n94 = ckpt.opaque "94"(%n43, %n51, %n60, %n79, %n86, %n87, %n88) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 15540, time = 585.0>} : (tensor<2080xi8>, tensor<500xi8>, tensor<290xi8>, tensor<3720xi8>, tensor<4990xi8>, tensor<1550xi8>, tensor<160xi8>) -> tensor<2250xi8>
  %n95 = ckpt.opaque "95"(%n2, %n89, %n90) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 4000, time = 854.0>} : (tensor<1950xi8>, tensor<660xi8>, tensor<870xi8>) -> tensor<520xi8>
  %n96 = ckpt.opaque "96"(%n70, %n77, %n84, %n91, %n92, %n93) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 11490, time = 901.0>} : (tensor<910xi8>, tensor<600xi8>, tensor<340xi8>, tensor<1960xi8>, tensor<2330xi8>, tensor<3790xi8>) -> tensor<1560xi8>
  %n97 = ckpt.opaque "97"(%n91, %n93, %n94) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 8630, time = 864.0>} : (tensor<1960xi8>, tensor<3790xi8>, tensor<2250xi8>) -> tensor<630xi8>
  %n98 = ckpt.opaque "98"(%n95, %n96) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 3990, time = 358.0>} : (tensor<520xi8>, tensor<1560xi8>) -> tensor<1910xi8>
  %n99 = ckpt.opaque "99"(%n71, %n83, %n87, %n92, %n93, %n96, %n97) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 11690, time = 406.0>} : (tensor<170xi8>, tensor<700xi8>, tensor<1550xi8>, tensor<2330xi8>, tensor<3790xi8>, tensor<1560xi8>, tensor<630xi8>) -> tensor<960xi8>
  %n1:2 = ckpt.opaque "1"(%n98, %n99) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 7794, time = 0.0>} : (tensor<1910xi8>, tensor<960xi8>) -> (tensor<4920xi8>, tensor<f32>)
  return %n1#1 : tensor<f32>
}
