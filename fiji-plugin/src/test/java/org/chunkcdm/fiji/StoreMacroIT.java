package org.chunkcdm.fiji;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * The ImageJ macro line on python-blosc2 containers in a real ImageJ 1.54p (as {@link ImageJZipIT}: the built
 * {@code chunkcdm-imagej.zip} unzipped next to ij.jar, under {@code xvfb-run}, hard timeout): a 3-D array stored
 * in a TreeStore zip ({@code variable=[model/run1/field]}) and one in a DictStore directory ({@code
 * variable=[temp]}, whose vlmeta carry a CF scale_factor) open as virtual hyperstacks whose dimensions and pixels
 * equal the manifest's values (unpacked by the scale factor).
 */
class StoreMacroIT {
  record Case(String dataset, String variable, String dtype) {}

  static final List<Case> CASES = List.of(new Case("treestore/v_tree_zip.b2z", "model/run1/field", "i4"),
      new Case("dictstore/v_dict_mixed.b2d", "temp", "f4"));

  @Test
  void macroOpensStoreArraysInRealImageJ() throws Exception {
    String xvfb = ImageJZipIT.xvfbRun();
    Path home = ImageJZipIT.installImageJ("it-run-stores");
    Path out = home.resolve("macro-output.txt");
    List<String> lines = new ArrayList<>();
    lines.add("out = \"\";");
    for (Case c : CASES) {
      Path ds = Fixtures.manifest("blosc2-stores").dataset(c.dataset()).file().toAbsolutePath();
      lines.add("run(\"Chunked Dataset (chunkcdm)...\", \"path=[" + ds + "] variable=[" + c.variable() + "]\");");
      lines.add("getDimensions(w, h, ch, z, t);");
      lines.add("out = out + \"" + c.variable() + " dims=\" + w + \",\" + h + \",\" + ch + \",\" + z + \",\" + t"
          + " + \" virtual=\" + is(\"Virtual Stack\") + \"\\n\";");
      lines.add("for (s = 1; s <= nSlices; s += 3) {");
      lines.add("  setSlice(s);");
      lines.add("  out = out + \"" + c.variable() + " \" + s + \" \" + d2s(getPixel(0, 0), 4) + \" \""
          + " + d2s(getPixel(w - 1, h - 1), 4) + \" \" + d2s(getPixel(floor(w / 2), floor(h / 3)), 4) + \"\\n\";");
      lines.add("}");
      lines.add("close();");
    }
    lines.add("out = out + \"done\\n\";");
    lines.add("File.saveString(out, \"" + out + "\");");
    lines.add("run(\"Quit\");");
    Path macro = home.resolve("stores.ijm");
    Files.writeString(macro, String.join("\n", lines));
    String text = ImageJZipIT.runMacro(xvfb, home, macro, out);
    assertTrue(text.contains("done"), text);
    for (Case c : CASES) {
      Fixtures.Variable fv = Fixtures.manifest("blosc2-stores").dataset(c.dataset()).variable(c.variable());
      long[] shape = fv.shape();
      int zs = (int) shape[0];
      int h = (int) shape[1];
      int w = (int) shape[2];
      assertTrue(text.contains(c.variable() + " dims=" + w + "," + h + ",1," + zs + ",1 virtual=1\n"), text);
      ByteBuffer b = ByteBuffer.wrap(fv.expected()).order(ByteOrder.LITTLE_ENDIAN);
      // the array's vlmeta scale_factor is CF packing: a 32-bit image shows the unpacked values
      double scale = fv.json().path("attrs").path("scale_factor").asDouble(1);
      for (int s = 1; s <= zs; s += 3) {
        int z = s - 1;
        String want = c.variable() + " " + s + " " + fmt(b, c, (z * h) * w, scale) + " "
            + fmt(b, c, (z * h + h - 1) * w + w - 1, scale) + " " + fmt(b, c, (z * h + h / 3) * w + w / 2, scale);
        assertTrue(text.contains(want + "\n"), "expected '" + want + "' in:\n" + text);
      }
    }
  }

  /** The value as the macro's d2s(v, 4) prints it. */
  static String fmt(ByteBuffer b, Case c, int i, double scale) {
    double v = (float) ((c.dtype().equals("i4") ? b.getInt(4 * i) : b.getFloat(4 * i)) * scale);
    return String.format(java.util.Locale.ROOT, "%.4f", v);
  }
}
