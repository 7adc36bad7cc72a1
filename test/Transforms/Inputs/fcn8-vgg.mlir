// Imported by ckpt.import_graph from fcn_8_vgg_32_416_608_3_train_nx.json: 73 nodes (37 backward), 149 links.
// Loss: node 36 ('Loss'). Result sizes: the node's memory in bytes; ckpt.cost time = the node's cost x 1.0 s.
func.func @fcn_8_vgg_32_416_608_3_train_nx_step(%data: tensor<0xi8>) -> (tensor<f32>, tensor<2071986176xi8>) attributes {ckpt.loss = 0 : i64} {
  %n0 = ckpt.opaque "block1_conv1"(%data) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2071986176, time = 13985906688.0>} : (tensor<0xi8>) -> tensor<2071986176xi8>
  %n1 = ckpt.opaque "block1_conv2"(%n0) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 4143972352, time = 298366009344.0>} : (tensor<2071986176xi8>) -> tensor<2071986176xi8>
  %n2 = ckpt.opaque "block1_pool"(%n1) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2589982720, time = 0.0>} : (tensor<2071986176xi8>) -> tensor<517996544xi8>
  %n3 = ckpt.opaque "block2_conv1"(%n2) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1553989632, time = 149183004672.0>} : (tensor<517996544xi8>) -> tensor<1035993088xi8>
  %n4 = ckpt.opaque "block2_conv2"(%n3) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2071986176, time = 298366009344.0>} : (tensor<1035993088xi8>) -> tensor<1035993088xi8>
  %n5 = ckpt.opaque "block2_pool"(%n4) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1294991360, time = 0.0>} : (tensor<1035993088xi8>) -> tensor<258998272xi8>
  %n6 = ckpt.opaque "block3_conv1"(%n5) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 776994816, time = 149183004672.0>} : (tensor<258998272xi8>) -> tensor<517996544xi8>
  %n7 = ckpt.opaque "block3_conv2"(%n6) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1035993088, time = 298366009344.0>} : (tensor<517996544xi8>) -> tensor<517996544xi8>
  %n8 = ckpt.opaque "block3_conv3"(%n7) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1035993088, time = 298366009344.0>} : (tensor<517996544xi8>) -> tensor<517996544xi8>
  %n9 = ckpt.opaque "block3_pool"(%n8) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 647495680, time = 0.0>} : (tensor<517996544xi8>) -> tensor<129499136xi8>
  %n10 = ckpt.opaque "block4_conv1"(%n9) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 388497408, time = 149183004672.0>} : (tensor<129499136xi8>) -> tensor<258998272xi8>
  %n11 = ckpt.opaque "block4_conv2"(%n10) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 517996544, time = 298366009344.0>} : (tensor<258998272xi8>) -> tensor<258998272xi8>
  %n12 = ckpt.opaque "block4_conv3"(%n11) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 517996544, time = 298366009344.0>} : (tensor<258998272xi8>) -> tensor<258998272xi8>
  %n13 = ckpt.opaque "block4_pool"(%n12) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 323747840, time = 0.0>} : (tensor<258998272xi8>) -> tensor<64749568xi8>
  %n14 = ckpt.opaque "block5_conv1"(%n13) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 129499136, time = 74591502336.0>} : (tensor<64749568xi8>) -> tensor<64749568xi8>
  %n15 = ckpt.opaque "block5_conv2"(%n14) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 129499136, time = 74591502336.0>} : (tensor<64749568xi8>) -> tensor<64749568xi8>
  %n16 = ckpt.opaque "block5_conv3"(%n15) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 129499136, time = 74591502336.0>} : (tensor<64749568xi8>) -> tensor<64749568xi8>
  %n17 = ckpt.opaque "block5_pool"(%n16) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 80936960, time = 0.0>} : (tensor<64749568xi8>) -> tensor<16187392xi8>
  %n18 = ckpt.opaque "conv2d_5"(%n17) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 145686528, time = 812218580992.0>} : (tensor<16187392xi8>) -> tensor<129499136xi8>
  %n19 = ckpt.opaque "dropout"(%n18) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 258998272, time = 0.0>} : (tensor<129499136xi8>) -> tensor<129499136xi8>
  %n20 = ckpt.opaque "conv2d_6"(%n19) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 258998272, time = 132607115264.0>} : (tensor<129499136xi8>) -> tensor<129499136xi8>
  %n21 = ckpt.opaque "dropout_1"(%n20) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 258998272, time = 0.0>} : (tensor<129499136xi8>) -> tensor<129499136xi8>
  %n22 = ckpt.opaque "conv2d_7"(%n21) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 130099840, time = 615120896.0>} : (tensor<129499136xi8>) -> tensor<600704xi8>
  %n23 = ckpt.opaque "conv2d_transpose"(%n22) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 3324544, time = 12938240.0>} : (tensor<600704xi8>) -> tensor<2723840xi8>
  %n24 = ckpt.opaque "cropping2d"(%n23) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 5311488, time = 0.0>} : (tensor<2723840xi8>) -> tensor<2587648xi8>
  %n25 = ckpt.opaque "cropping2d_1"(%n24) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 4990464, time = 0.0>} : (tensor<2587648xi8>) -> tensor<2402816xi8>
  %n26 = ckpt.opaque "conv2d_8"(%n13) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 67152384, time = 307560448.0>} : (tensor<64749568xi8>) -> tensor<2402816xi8>
  %n27 = ckpt.opaque "add"(%n25, %n26) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 7208448, time = 1201408.0>} : (tensor<2402816xi8>, tensor<2402816xi8>) -> tensor<2402816xi8>
  %n28 = ckpt.opaque "conv2d_transpose_1"(%n27) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 12646400, time = 48657024.0>} : (tensor<2402816xi8>) -> tensor<10243584xi8>
  %n29 = ckpt.opaque "cropping2d_2"(%n28) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 20224512, time = 0.0>} : (tensor<10243584xi8>) -> tensor<9980928xi8>
  %n30 = ckpt.opaque "conv2d_9"(%n9) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 139110400, time = 615120896.0>} : (tensor<129499136xi8>) -> tensor<9611264xi8>
  %n31 = ckpt.opaque "cropping2d_3"(%n29) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 19592192, time = 0.0>} : (tensor<9980928xi8>) -> tensor<9611264xi8>
  %n32 = ckpt.opaque "add_1"(%n30, %n31) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 28833792, time = 4805632.0>} : (tensor<9611264xi8>, tensor<9611264xi8>) -> tensor<9611264xi8>
  %n33 = ckpt.opaque "conv2d_transpose_2"(%n32) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 644810752, time = 3017197568.0>} : (tensor<9611264xi8>) -> tensor<635199488xi8>
  %n34 = ckpt.opaque "reshape_1"(%n33) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1270398976, time = 0.0>} : (tensor<635199488xi8>) -> tensor<635199488xi8>
  %n35 = ckpt.opaque "activation_1"(%n34) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1270398976, time = 158799872.0>} : (tensor<635199488xi8>) -> tensor<635199488xi8>
  %n36:2 = ckpt.opaque "Loss"(%n35) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 635199620, time = 0.0>} : (tensor<635199488xi8>) -> (tensor<128xi8>, tensor<f32>)
  %n37 = ckpt.opaque "activation_1_backward"(%n35, %n36#0) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1270399104, time = 317599744.0>} : (tensor<635199488xi8>, tensor<128xi8>) -> tensor<635199488xi8>
  %n38 = ckpt.opaque "reshape_1_backward"(%n34, %n35, %n37) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2540797952, time = 0.0>} : (tensor<635199488xi8>, tensor<635199488xi8>, tensor<635199488xi8>) -> tensor<635199488xi8>
  %n39 = ckpt.opaque "conv2d_transpose_2_backward"(%n33, %n34, %n38) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2540797952, time = 6034395136.0>} : (tensor<635199488xi8>, tensor<635199488xi8>, tensor<635199488xi8>) -> tensor<635199488xi8>
  %n40 = ckpt.opaque "add_1_backward"(%n32, %n33, %n39) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1289621504, time = 9611264.0>} : (tensor<9611264xi8>, tensor<635199488xi8>, tensor<635199488xi8>) -> tensor<9611264xi8>
  %n41 = ckpt.opaque "cropping2d_3_backward"(%n31, %n32, %n40) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 38445056, time = 0.0>} : (tensor<9611264xi8>, tensor<9611264xi8>, tensor<9611264xi8>) -> tensor<9611264xi8>
  %n42 = ckpt.opaque "conv2d_9_backward"(%n30, %n32, %n40) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 38445056, time = 1230241792.0>} : (tensor<9611264xi8>, tensor<9611264xi8>, tensor<9611264xi8>) -> tensor<9611264xi8>
  %n43 = ckpt.opaque "cropping2d_2_backward"(%n29, %n31, %n41) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 39184384, time = 0.0>} : (tensor<9980928xi8>, tensor<9611264xi8>, tensor<9611264xi8>) -> tensor<9980928xi8>
  %n44 = ckpt.opaque "conv2d_transpose_1_backward"(%n28, %n29, %n43) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 40449024, time = 97314048.0>} : (tensor<10243584xi8>, tensor<9980928xi8>, tensor<9980928xi8>) -> tensor<10243584xi8>
  %n45 = ckpt.opaque "add_backward"(%n27, %n28, %n44) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 25292800, time = 2402816.0>} : (tensor<2402816xi8>, tensor<10243584xi8>, tensor<10243584xi8>) -> tensor<2402816xi8>
  %n46 = ckpt.opaque "conv2d_8_backward"(%n26, %n27, %n45) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 9611264, time = 615120896.0>} : (tensor<2402816xi8>, tensor<2402816xi8>, tensor<2402816xi8>) -> tensor<2402816xi8>
  %n47 = ckpt.opaque "cropping2d_1_backward"(%n25, %n27, %n45) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 9611264, time = 0.0>} : (tensor<2402816xi8>, tensor<2402816xi8>, tensor<2402816xi8>) -> tensor<2402816xi8>
  %n48 = ckpt.opaque "cropping2d_backward"(%n24, %n25, %n47) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 9980928, time = 0.0>} : (tensor<2587648xi8>, tensor<2402816xi8>, tensor<2402816xi8>) -> tensor<2587648xi8>
  %n49 = ckpt.opaque "conv2d_transpose_backward"(%n23, %n24, %n48) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 10622976, time = 25876480.0>} : (tensor<2723840xi8>, tensor<2587648xi8>, tensor<2587648xi8>) -> tensor<2723840xi8>
  %n50 = ckpt.opaque "conv2d_7_backward"(%n22, %n23, %n49) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 6649088, time = 1230241792.0>} : (tensor<600704xi8>, tensor<2723840xi8>, tensor<2723840xi8>) -> tensor<600704xi8>
  %n51 = ckpt.opaque "dropout_1_backward"(%n21, %n22, %n50) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 260199680, time = 0.0>} : (tensor<129499136xi8>, tensor<600704xi8>, tensor<600704xi8>) -> tensor<129499136xi8>
  %n52 = ckpt.opaque "conv2d_6_backward"(%n20, %n21, %n51) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 517996544, time = 265214230528.0>} : (tensor<129499136xi8>, tensor<129499136xi8>, tensor<129499136xi8>) -> tensor<129499136xi8>
  %n53 = ckpt.opaque "dropout_backward"(%n19, %n20, %n52) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 517996544, time = 0.0>} : (tensor<129499136xi8>, tensor<129499136xi8>, tensor<129499136xi8>) -> tensor<129499136xi8>
  %n54 = ckpt.opaque "conv2d_5_backward"(%n18, %n19, %n53) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 517996544, time = 1624437161984.0>} : (tensor<129499136xi8>, tensor<129499136xi8>, tensor<129499136xi8>) -> tensor<129499136xi8>
  %n55 = ckpt.opaque "block5_pool_backward"(%n17, %n18, %n54) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 291373056, time = 0.0>} : (tensor<16187392xi8>, tensor<129499136xi8>, tensor<129499136xi8>) -> tensor<16187392xi8>
  %n56 = ckpt.opaque "block5_conv3_backward"(%n16, %n17, %n55) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 161873920, time = 149183004672.0>} : (tensor<64749568xi8>, tensor<16187392xi8>, tensor<16187392xi8>) -> tensor<64749568xi8>
  %n57 = ckpt.opaque "block5_conv2_backward"(%n15, %n16, %n56) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 258998272, time = 149183004672.0>} : (tensor<64749568xi8>, tensor<64749568xi8>, tensor<64749568xi8>) -> tensor<64749568xi8>
  %n58 = ckpt.opaque "block5_conv1_backward"(%n14, %n15, %n57) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 258998272, time = 149183004672.0>} : (tensor<64749568xi8>, tensor<64749568xi8>, tensor<64749568xi8>) -> tensor<64749568xi8>
  %n59 = ckpt.opaque "block4_pool_backward"(%n13, %n14, %n26, %n46, %n58) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 263803904, time = 0.0>} : (tensor<64749568xi8>, tensor<64749568xi8>, tensor<2402816xi8>, tensor<2402816xi8>, tensor<64749568xi8>) -> tensor<64749568xi8>
  %n60 = ckpt.opaque "block4_conv3_backward"(%n12, %n13, %n59) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 647495680, time = 596732018688.0>} : (tensor<258998272xi8>, tensor<64749568xi8>, tensor<64749568xi8>) -> tensor<258998272xi8>
  %n61 = ckpt.opaque "block4_conv2_backward"(%n11, %n12, %n60) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1035993088, time = 596732018688.0>} : (tensor<258998272xi8>, tensor<258998272xi8>, tensor<258998272xi8>) -> tensor<258998272xi8>
  %n62 = ckpt.opaque "block4_conv1_backward"(%n10, %n11, %n61) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1035993088, time = 298366009344.0>} : (tensor<258998272xi8>, tensor<258998272xi8>, tensor<258998272xi8>) -> tensor<258998272xi8>
  %n63 = ckpt.opaque "block3_pool_backward"(%n9, %n10, %n30, %n42, %n62) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 796217344, time = 0.0>} : (tensor<129499136xi8>, tensor<258998272xi8>, tensor<9611264xi8>, tensor<9611264xi8>, tensor<258998272xi8>) -> tensor<129499136xi8>
  %n64 = ckpt.opaque "block3_conv3_backward"(%n8, %n9, %n63) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1294991360, time = 596732018688.0>} : (tensor<517996544xi8>, tensor<129499136xi8>, tensor<129499136xi8>) -> tensor<517996544xi8>
  %n65 = ckpt.opaque "block3_conv2_backward"(%n7, %n8, %n64) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2071986176, time = 596732018688.0>} : (tensor<517996544xi8>, tensor<517996544xi8>, tensor<517996544xi8>) -> tensor<517996544xi8>
  %n66 = ckpt.opaque "block3_conv1_backward"(%n6, %n7, %n65) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2071986176, time = 298366009344.0>} : (tensor<517996544xi8>, tensor<517996544xi8>, tensor<517996544xi8>) -> tensor<517996544xi8>
  %n67 = ckpt.opaque "block2_pool_backward"(%n5, %n6, %n66) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 1553989632, time = 0.0>} : (tensor<258998272xi8>, tensor<517996544xi8>, tensor<517996544xi8>) -> tensor<258998272xi8>
  %n68 = ckpt.opaque "block2_conv2_backward"(%n4, %n5, %n67) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 2589982720, time = 596732018688.0>} : (tensor<1035993088xi8>, tensor<258998272xi8>, tensor<258998272xi8>) -> tensor<1035993088xi8>
  %n69 = ckpt.opaque "block2_conv1_backward"(%n3, %n4, %n68) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 4143972352, time = 298366009344.0>} : (tensor<1035993088xi8>, tensor<1035993088xi8>, tensor<1035993088xi8>) -> tensor<1035993088xi8>
  %n70 = ckpt.opaque "block1_pool_backward"(%n2, %n3, %n69) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 3107979264, time = 0.0>} : (tensor<517996544xi8>, tensor<1035993088xi8>, tensor<1035993088xi8>) -> tensor<517996544xi8>
  %n71 = ckpt.opaque "block1_conv2_backward"(%n1, %n2, %n70) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 5179965440, time = 596732018688.0>} : (tensor<2071986176xi8>, tensor<517996544xi8>, tensor<517996544xi8>) -> tensor<2071986176xi8>
  %n72 = ckpt.opaque "block1_conv1_backward"(%n0, %n1, %n71) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 8287944704, time = 27971813376.0>} : (tensor<2071986176xi8>, tensor<2071986176xi8>, tensor<2071986176xi8>) -> tensor<2071986176xi8>
  return %n36#1, %n72 : tensor<f32>, tensor<2071986176xi8>
}
