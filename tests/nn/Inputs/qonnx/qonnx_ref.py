"""QONNX's reference quantizers, transcribed line for line in NumPy (float64).

Source: fastmachinelearning/qonnx, src/qonnx/custom_op/general/intquant.py (min_int, max_int,
int_quant, resolve_rounding_mode), bipolar_quant.py (binary_quant), trunc.py (trunc_v1,
trunc_v2), floatquant.py (compute_max_val, float_quant: signed, saturating, as
FloatQuant's execute_node calls it) and multithreshold.py (multithreshold, and the layout
handling of MultiThreshold's execute_node as multithreshold_node). Only the imports and the float64 casts are otir's; the arithmetic is QONNX's, step
for step, so that these functions compute what QONNX's execute_node computes. Importable by
every generator of otir's tests (tests/nn/Inputs/qonnx/gen.py, the model generators), so there
is one copy.
"""
import numpy as np


def min_int(signed, narrow_range, bit_width):
    if signed and narrow_range:
        value = -(2 ** (bit_width - 1)) + 1
    elif signed and not narrow_range:
        value = -(2 ** (bit_width - 1))
    else:
        value = 0 * bit_width
    return value


def max_int(signed, narrow_range, bit_width):
    if not signed and not narrow_range:
        value = (2**bit_width) - 1
    elif not signed and narrow_range:
        value = (2**bit_width) - 2
    else:
        value = (2 ** (bit_width - 1)) - 1
    return value


def int_quant(inp_tensor, scale, zeropt, bitwidth, signed, narrow, rounding_mode):
    inp_tensor = np.asarray(inp_tensor, dtype=np.float64)
    scale = np.asarray(scale, dtype=np.float64)
    zeropt = np.asarray(zeropt, dtype=np.float64)
    bitwidth = np.asarray(bitwidth, dtype=np.float64)
    # Scaling
    y_int = inp_tensor / scale
    y_int = y_int + zeropt
    if bitwidth == 1 and signed:
        # BUG: 1-bit IntQuant ops currently not exported correctly
        # manually convert to bipolar values
        y_ones = np.ones(y_int.shape, dtype=y_int.dtype)
        y_int = np.where(y_int >= 0.0, y_ones, -y_ones)
    else:
        # Clamping
        min_int_val = min_int(signed, narrow, bitwidth)
        max_int_val = max_int(signed, narrow, bitwidth)
        y_int = np.where(y_int > max_int_val, max_int_val.astype(y_int.dtype), y_int)
        y_int = np.where(y_int < min_int_val, min_int_val.astype(y_int.dtype), y_int)
        # Rounding
        rounding_fx = resolve_rounding_mode(rounding_mode)
        y_int = rounding_fx(y_int)
    # Re-scaling
    out_tensor = y_int - zeropt
    out_tensor = out_tensor * scale

    return out_tensor


def resolve_rounding_mode(mode_string):
    """Resolve the rounding mode string of IntQuant and Trunc ops
    to the corresponding numpy functions."""
    normalized_mode_string = mode_string.upper()
    if normalized_mode_string == "ROUND" or normalized_mode_string == "HALF_EVEN":
        return np.round
    elif normalized_mode_string == "CEIL":
        return np.ceil
    elif normalized_mode_string == "FLOOR":
        return np.floor
    elif normalized_mode_string == "UP":

        def round_up(x):
            return np.sign(x) * np.ceil(np.abs(x))

        return round_up
    elif normalized_mode_string == "DOWN":
        return np.fix
    elif normalized_mode_string == "HALF_UP":

        def round_half_up(x):
            return np.sign(x) * np.floor(np.abs(x) + 0.5)

        return round_half_up
    elif normalized_mode_string == "HALF_DOWN":

        def round_half_down(x):
            return np.sign(x) * np.ceil(np.abs(x) - 0.5)

        return round_half_down
    else:
        raise ValueError(f"Could not resolve rounding mode called: {normalized_mode_string}")


def binary_quant(inp_tensor, scale):
    inp_tensor = np.asarray(inp_tensor, dtype=np.float64)
    scale = np.asarray(scale, dtype=np.float64)
    # Quantizing
    y_int = inp_tensor
    y_ones = np.ones(y_int.shape, dtype=y_int.dtype)
    y_int = np.where(y_int >= 0.0, y_ones, -y_ones)
    # Scaling
    out_tensor = y_int * scale

    return out_tensor


def trunc_v2(inp_tensor, scale, zeropt, input_bit_width, narrow, signed, output_scale, output_bit_width, rounding_mode):
    inp_tensor = np.asarray(inp_tensor, dtype=np.float64)
    scale = np.asarray(scale, dtype=np.float64)
    zeropt = np.asarray(zeropt, dtype=np.float64)
    output_scale = np.asarray(output_scale, dtype=np.float64)
    output_bit_width = np.asarray(output_bit_width, dtype=np.float64)
    # Scaling
    y = inp_tensor / scale
    y = y + zeropt
    # Rounding
    y = np.round(y)
    # Rescale
    trunc_scale = 2 ** np.round(
        np.log2(output_scale / scale)
    )  # Trunc scale should be a power-of-two - ensure that is the case
    y = y / trunc_scale

    # Clamping
    min_int_val = min_int(signed, narrow, output_bit_width)
    max_int_val = max_int(signed, narrow, output_bit_width)
    y = np.where(y > max_int_val, max_int_val.astype(y.dtype), y)
    y = np.where(y < min_int_val, min_int_val.astype(y.dtype), y)
    # To int (truncate)
    rounding_fx = resolve_rounding_mode(rounding_mode)
    y = rounding_fx(y)

    # Rescale
    output_zeropt = zeropt / trunc_scale  # Rescale zero-point
    y = y - output_zeropt
    y = y * output_scale

    return y


def trunc_v1(inp_tensor, scale, zeropt, input_bit_width, output_bit_width, rounding_mode):
    inp_tensor = np.asarray(inp_tensor, dtype=np.float64)
    scale = np.asarray(scale, dtype=np.float64)
    zeropt = np.asarray(zeropt, dtype=np.float64)
    input_bit_width = np.asarray(input_bit_width, dtype=np.float64)
    output_bit_width = np.asarray(output_bit_width, dtype=np.float64)
    # Scaling
    y = inp_tensor / scale
    y = y + zeropt
    # Rounding
    y = np.round(y)
    # Truncate
    trunc_bit_width = input_bit_width - output_bit_width
    trunc_scale = 2.0**trunc_bit_width
    y = y / trunc_scale

    # To int
    rounding_fx = resolve_rounding_mode(rounding_mode)
    y = rounding_fx(y)

    # Rescale
    y = y - zeropt
    y = y * scale

    return y


def compute_max_val(exponent_bitwidth, mantissa_bitwidth, exponent_bias):
    max_exponent = (2.0**exponent_bitwidth) - 1.0 - exponent_bias
    max_mantissa = np.sum((2.0 ** np.arange(0, -1.0 * mantissa_bitwidth - 1.0, -1.0)))
    max_val = max_mantissa * (2**max_exponent)
    return max_val


def float_quant(X, scale, exponent_bitwidth, mantissa_bitwidth, exponent_bias, max_val, rounding_mode):
    X = np.asarray(X, dtype=np.float64)
    scale = np.asarray(scale, dtype=np.float64)
    max_val = np.asarray(max_val, dtype=np.float64)
    X = X / scale

    eps = np.finfo(X.dtype).tiny
    fp_internal_scale_min = 1.0 - exponent_bias - mantissa_bitwidth

    internal_scale = np.floor(np.log2(np.abs(X) + eps)) - mantissa_bitwidth
    internal_scale = np.maximum(internal_scale, fp_internal_scale_min)
    internal_scale = np.exp2(internal_scale)

    x_q = internal_scale * resolve_rounding_mode(rounding_mode)(X / internal_scale)

    max_value = compute_max_val(exponent_bitwidth, mantissa_bitwidth, exponent_bias)
    max_value = np.minimum(max_value, max_val)
    min_value = -max_value

    x_q = np.clip(x_q, min_value, max_value)
    return x_q * scale


def multithreshold(v, thresholds, out_scale=None, out_bias=None):
    is_global_threshold = thresholds.shape[0] == 1
    assert (v.shape[1] == thresholds.shape[0]) or is_global_threshold
    vm = np.moveaxis(v, source=1, destination=-1)
    vm = np.expand_dims(vm, axis=-1)
    cmp = vm >= thresholds
    ret = np.count_nonzero(cmp, axis=-1)
    ret = np.moveaxis(ret, source=-1, destination=1)
    assert ret.shape == v.shape
    if out_scale is None:
        out_scale = 1.0
    if out_bias is None:
        out_bias = 0.0
    return out_scale * ret + out_bias


def multithreshold_node(v, thresholds, out_scale, out_bias, data_layout="NCHW"):
    if data_layout == "NHWC":
        if v.ndim == 4:
            v = np.transpose(v, (0, 3, 1, 2))
        elif v.ndim == 2:
            pass
        else:
            raise Exception("Unknown data_layout and input ndim combination for MultiThreshold.")
    orig_shape = None
    if v.ndim not in {2, 4}:
        orig_shape = v.shape
        v = v.reshape((-1, v.shape[-1]))
    output = multithreshold(v, thresholds, out_scale, out_bias)
    if data_layout == "NHWC":
        if output.ndim == 4:
            output = np.transpose(output, (0, 2, 3, 1))
        elif output.ndim == 2:
            pass
        else:
            raise Exception("Unknown data_layout and output ndim combination for MultiThreshold.")
    if orig_shape is not None:
        output = output.reshape(orig_shape)
    return output
