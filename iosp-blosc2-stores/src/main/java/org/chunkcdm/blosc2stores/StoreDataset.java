package org.chunkcdm.blosc2stores;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.chunkcdm.open.Attributes;
import org.chunkcdm.open.BasicDataset;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.OpenOptions;

/**
 * A python-blosc2 container as a {@link ChunkedDataset}. Variable names are paths: a value stored under the key
 * {@code /dir/arr} is the variable {@code dir/arr} (in the CDM view: variable {@code arr} of group {@code dir});
 * {@link #groupAttributes()} gives the attributes of each group (TreeStore group vlmeta, an inline CTable's vlmeta).
 */
public final class StoreDataset extends BasicDataset {
  private final Map<String, Attributes> groups;

  StoreDataset(BasicDataset ds, Map<String, Attributes> groups) {
    super(ds);
    this.groups = Collections.unmodifiableMap(new LinkedHashMap<>(groups));
  }

  /**
   * Group path ({@code a/b}) → its attributes, for every group that has attributes or holds a variable, parents
   * before children.
   */
  public Map<String, Map<String, Object>> groupAttributes() {
    Map<String, Map<String, Object>> out = new LinkedHashMap<>();
    groups.forEach((k, v) -> out.put(k, v.map()));
    return Collections.unmodifiableMap(out);
  }

  /** Names of a group's attributes whose integer values are unsigned. */
  public Set<String> groupUnsigned(String group) {
    Attributes a = groups.get(group);
    return a == null ? Set.of() : a.unsigned();
  }

  @Override
  public StoreDataset withOptions(OpenOptions options) {
    BasicDataset b = super.withOptions(options);
    return b == this ? this : new StoreDataset(b, groups);
  }
}
